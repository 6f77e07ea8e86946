import { PassThrough } from 'node:stream';
import type { AuditCallerContext, AuditTrail, CallResult } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { serveHttp } from '../src/http/serve-http.js';
import { serveStdio } from '../src/serve-stdio.js';
import { HEADERS, INITIALIZE } from './support/http-fixture.js';

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
  { request: call(1), error: -32602 },
  { request: call('b', {}), error: -32602 },
  { request: call(3, { name: 42, arguments: {} }), error: -32602 },
  { request: call(4, { arguments: { path: 'a.txt' } }), error: -32602 },
  { request: call(5, { ...READ, _meta: 5 }), result: 'hello', tool: 'read_text_file' },
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
  { request: { jsonrpc: '2.0', id: 11, method: 'ping', params: { _meta: 5 } }, error: -32602, notACall: true },
] as const;

type Answer = { id?: unknown; error?: { code: number; message: string }; result?: { isError?: boolean; content?: { text: string }[] } };

function check(answers: readonly Answer[], records: readonly Recorded[]) {
  for (const entry of CASES) {
    const answer = answers.find((candidate) => Object.is(candidate.id, entry.request.id));
    expect(answer, `an answer to ${JSON.stringify(entry.request)}`).toBeDefined();
    if ('error' in entry) {
      expect(answer?.error?.code, JSON.stringify(entry.request)).toBe(entry.error);
      expect(answer?.error?.message).toMatch(/^Invalid params: /u);
    } else if ('failure' in entry) {
      expect(answer?.result?.isError).toBe(true);
      expect(JSON.parse(answer?.result?.content?.[0]?.text ?? '{}').error.code).toBe(entry.failure);
    } else {
      expect(answer?.result?.isError, JSON.stringify(answer)).toBeUndefined();
      expect(answer?.result?.content?.[0]?.text).toContain(entry.result);
    }
  }
  // Every tools/call has its record, under the session's client; one without a tool name records none.
  const named = CASES.filter((entry) => 'tool' in entry).map((entry) => entry.tool);
  expect(
    records
      .map((record) => record.tool)
      .filter((tool) => typeof tool === 'string')
      .sort(),
  ).toEqual([...named].sort());
  expect(records.filter((record) => typeof record.tool !== 'string')).toHaveLength(4);
  expect(records.every((record) => record.caller?.client?.name === 'raw')).toBe(true);
}

async function workspace() {
  const { provider, fixtures } = createMemfsTestbed();
  await fixtures.writeFile('a.txt', 'hello');
  const { trail, records } = recordingTrail();
  return { runtime: await createRuntime({ provider, audit: trail }), records };
}

describe('a tools/call with bad params', () => {
  it('gets the exact JSON-RPC error under its own id, and its record, over stdio', async () => {
    const { runtime, records } = await workspace();
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const session = await serveStdio(runtime, { input, output, log: () => {} });
    input.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    for (const entry of CASES) input.write(`${JSON.stringify(entry.request)}\n`);
    input.end();
    await session.finished;
    await session.close();
    check(
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Answer),
      records,
    );
    await runtime.close();
  });

  it('gets the exact JSON-RPC error under its own id, and its record, over Streamable HTTP', async () => {
    const { runtime, records } = await workspace();
    const server = await serveHttp(runtime, { log: () => {} });
    try {
      const opened = await fetch(server.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
      await opened.text();
      const headers = { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
      await (
        await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
      ).text();
      const answers: Answer[] = [];
      for (const entry of CASES) {
        const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(entry.request) });
        const body = await response.text();
        answers.push(JSON.parse(body.startsWith('{') ? body : (/^data: (.*)$/mu.exec(body)?.[1] ?? body)) as Answer);
      }
      check(answers, records);
    } finally {
      await server.close();
      await runtime.close();
    }
  });
});
