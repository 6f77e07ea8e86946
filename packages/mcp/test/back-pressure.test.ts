import type { ToolSummary } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import type { McpProcess } from '../src/mcp-runtime.js';
import { fakeRuntime } from './support/fake-runtime.js';
import { EVERY_WAY, MODERN, serve } from './support/generations.js';

const slowTool: ToolSummary = {
  name: 'slow',
  title: 'Slow',
  description: 'Answers once the test lets it.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/** A process whose calls wait until the test opens the gate; it counts how many run at once. */
function gated() {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const counts = { running: 0, peak: 0 };
  const process: McpProcess = {
    call: async () => {
      counts.running += 1;
      counts.peak = Math.max(counts.peak, counts.running);
      await gate;
      counts.running -= 1;
      return { ok: true, result: { done: true } };
    },
  };
  return { process, counts, open: () => open() };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(EVERY_WAY)('back-pressure, $generation over $transport', ({ generation, transport }) => {
  // Over HTTP a 2026-07-28 client has no session: its bound is per connection and server-wide
  // (modern-calls-in-flight.test.ts); each fetch here would be a connection's first call.
  const sessionless = generation === MODERN && transport === 'http';
  const title = sessionless
    ? 'no session to bound: 12 calls on 12 connections all run, each its connection’s first (the per-connection bound is tested on its own)'
    : 'a connection (a session) runs at most maxCallsInFlight calls at once, and answers every one it took';
  it(title, async () => {
    const { process, counts, open } = gated();
    const limits = { maxCallsInFlight: 3 };
    const served = await serve(transport, { runtime: fakeRuntime([slowTool], process), http: { limits }, stdio: { limits } });
    try {
      const connection = await served.connect(generation);
      const calls = Array.from({ length: 12 }, (_, index) =>
        connection.exchange({ jsonrpc: '2.0', id: index, method: 'tools/call', params: { name: 'slow', arguments: {} } }),
      );
      await settle(1000);
      expect(counts.peak).toBe(sessionless ? 12 : limits.maxCallsInFlight);
      open();
      const answered = (await Promise.all(calls)).flatMap((exchanged) => exchanged.answers);
      for (let index = 0; index < 12; index += 1) {
        expect(answered.find((answer) => answer.id === index)?.result?.structuredContent).toEqual({ done: true });
      }
      expect(counts.peak).toBe(sessionless ? 12 : limits.maxCallsInFlight);
    } finally {
      open();
      await served.close();
    }
  });
});
