import type { AuditCallerContext, AuditTrail, CallResult } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { type Answer, EVERY_WAY, MODERN, serve } from './support/generations.js';

interface Recorded {
  readonly tool: unknown;
  readonly caller: AuditCallerContext | undefined;
  readonly outcome: CallResult;
}

/** An audit trail that keeps each call's record in memory. */
function recordingTrail(): { trail: AuditTrail; records: Recorded[] } {
  const records: Recorded[] = [];
  const trail: AuditTrail = {
    openSession: async () => ({
      id: 'session',
      begin: (start) => ({
        watch: (provider) => provider,
        notePath: () => {},
        noteDecision: () => {},
        finish: async (outcome) => {
          records.push({ tool: start.tool, caller: start.caller, outcome });
        },
      }),
      end: async () => {},
    }),
  };
  return { trail, records };
}

const call = (id: unknown, params?: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', ...(params === undefined ? {} : { params }) });
const READ = { name: 'read_text_file', arguments: { path: 'a.txt' } };

/** Malformed tools/call requests, what each must be answered, and the tool its record names (undefined: none). */
const CASES = [
  { request: call(1), error: -32602, cannotBeModern: true },
  { request: call('b', {}), error: -32602 },
  { request: call(3, { name: 42, arguments: {} }), error: -32602 },
  { request: call(4, { arguments: { path: 'a.txt' } }), error: -32602 },
  { request: call(5, { ...READ, _meta: 5 }), result: 'hello', tool: 'read_text_file', cannotBeModern: true },
  { request: call(6, { ...READ, task: 'x' }), result: 'hello', tool: 'read_text_file' },
  { request: call(7, { name: 'no_such_tool', arguments: {} }), failure: 'unknown_tool', tool: 'no_such_tool' },
  { request: call(8, { name: 'read_text_file', arguments: [1] }), failure: 'invalid_arguments', tool: 'read_text_file' },
  { request: call(9, { name: 'read_text_file', arguments: { path: 7 } }), failure: 'invalid_arguments', tool: 'read_text_file' },
  // A valid `task` made the SDK run the write and then answer an error: the client saw a failure that wrote.
  {
    request: call(10, { name: 'write_text_file', arguments: { path: 'w.txt', content: 'x' }, task: { ttl: 1000 } }),
    result: 'w.txt',
    tool: 'write_text_file',
  },
  { request: { jsonrpc: '2.0', id: 11, method: 'ping', params: { _meta: 5 } }, error: -32602, notACall: true, cannotBeModern: true },
] as const;

function check(cases: readonly (typeof CASES)[number][], answers: readonly Answer[], records: readonly Recorded[]) {
  for (const entry of cases) {
    const answer = answers.find((candidate) => Object.is(candidate.id, entry.request.id));
    expect(answer, `an answer to ${JSON.stringify(entry.request)}`).toBeDefined();
    if ('error' in entry) {
      expect(answer?.error?.code, JSON.stringify(entry.request)).toBe(entry.error);
      expect(answer?.error?.message).toMatch(/^Invalid params: /u);
    } else if ('failure' in entry) {
      expect(answer?.result?.isError, JSON.stringify(answer)).toBe(true);
      expect(JSON.parse(answer?.result?.content?.[0]?.text ?? '{}').error.code).toBe(entry.failure);
    } else {
      expect(answer?.result?.isError, JSON.stringify(answer)).toBeUndefined();
      expect(answer?.result?.content?.[0]?.text).toContain(entry.result);
    }
  }
  // Every tools/call has its record, under the session's client; one without a tool name records none.
  const named = cases.filter((entry) => 'tool' in entry).map((entry) => entry.tool);
  expect(
    records
      .map((record) => record.tool)
      .filter((tool) => typeof tool === 'string')
      .sort(),
  ).toEqual([...named].sort());
  const unnamed = cases.filter((entry) => 'error' in entry && !('notACall' in entry));
  expect(records.filter((record) => typeof record.tool !== 'string')).toHaveLength(unnamed.length);
  expect(records.every((record) => record.caller?.client?.name === 'raw')).toBe(true);
}

describe.each(EVERY_WAY)('a tools/call with bad params, $generation over $transport', ({ generation, transport }) => {
  // A request's generation is its `_meta`: one with no params or a `_meta` that is not an object
  // cannot claim 2026-07-28, so those cases are 2025-era requests on every connection.
  const cases = generation === MODERN ? CASES.filter((entry) => !('cannotBeModern' in entry)) : CASES;
  const title =
    generation === MODERN
      ? 'gets the exact JSON-RPC error under its own id, and its record (no-params and non-object _meta cases are 2025-era by definition)'
      : 'gets the exact JSON-RPC error under its own id, and its record';
  it(title, async () => {
    const { trail, records } = recordingTrail();
    const served = await serve(transport, { files: { 'a.txt': 'hello' }, runtimeOptions: { audit: trail } });
    try {
      const connection = await served.connect(generation);
      const answers: Answer[] = [];
      for (const entry of cases) answers.push(await connection.request(entry.request));
      check(cases, answers, records);
    } finally {
      await served.close();
    }
  });
});
