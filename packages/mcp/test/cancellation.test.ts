import type { ToolSummary } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import type { McpProcess } from '../src/mcp-runtime.js';
import { fakeRuntime } from './support/fake-runtime.js';
import { asGeneration, EVERY_WAY, MODERN, serve } from './support/generations.js';

const waitTool: ToolSummary = {
  name: 'wait',
  title: 'Wait',
  description: 'Waits until it is cancelled.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** A process whose calls wait (as on an approval) until their signal aborts, then fail approval_required. */
function waiting() {
  const seen = { started: 0, aborted: 0 };
  let began: () => void = () => {};
  const started = new Promise<void>((resolve) => (began = resolve));
  const process: McpProcess = {
    call: (_name, _args, options) =>
      new Promise((resolve) => {
        seen.started += 1;
        began();
        options?.signal?.addEventListener('abort', () => {
          seen.aborted += 1;
          resolve({ ok: false, error: { code: 'approval_required', message: 'Cancelled.', effect: 'none' } });
        });
      }),
  };
  return { process, seen, started };
}

const CALL = { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'wait', arguments: {} } };

describe.each(EVERY_WAY)('cancelling a call that waits, $generation over $transport', ({ generation, transport }) => {
  // 2026-07-28 over HTTP has no channel to send `notifications/cancelled` on: the client cancels by
  // closing the request, and then there is no one to answer.
  const byClosing = generation === MODERN && transport === 'http';
  const title = byClosing
    ? 'closing the request stops the call where it waits (nobody is left to answer)'
    : 'notifications/cancelled stops the call where it waits, and the call is still answered';
  it(title, async () => {
    const { process, seen, started } = waiting();
    const served = await serve(transport, { runtime: fakeRuntime([waitTool], process) });
    try {
      const connection = await served.connect(generation);
      if (byClosing) {
        const headers = { ...connection.headers, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'wait' };
        const client = new AbortController();
        const pending = fetch(served.url!, { method: 'POST', headers, body: JSON.stringify(asGeneration(MODERN, CALL)), signal: client.signal });
        await started;
        client.abort();
        await pending.catch(() => undefined);
        for (let waited = 0; waited < 10_000 && seen.aborted === 0; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(seen).toEqual({ started: 1, aborted: 1 });
        return;
      }
      const answer = connection.exchange(CALL);
      await started;
      // Over HTTP the notification goes on a POST of its own (inside the 2025 session).
      await connection.exchange({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a', reason: 'user' } });
      const answered = (await answer).answers.find((candidate) => candidate.id === 'a');
      // docs/mcp.md: the call is still answered, with its own failure.
      expect(answered?.result?.isError, JSON.stringify(answered)).toBe(true);
      expect(seen).toEqual({ started: 1, aborted: 1 });
    } finally {
      await served.close();
    }
  });
});
