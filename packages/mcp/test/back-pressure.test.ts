import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { McpProcess } from '../src/mcp-runtime.js';
import { serveStdio } from '../src/serve-stdio.js';
import { fakeRuntime, gatedProcess as gated, slowTool } from './support/fake-runtime.js';
import { asGeneration, EVERY_WAY, GENERATIONS, LEGACY, MODERN, serve } from './support/generations.js';

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

describe.each(GENERATIONS)('a stdio client of %s that reads none of its replies', (generation) => {
  it('stops the server reading at maxUnwrittenBytes, and every call is answered once it reads', async () => {
    const calls = { count: 0 };
    const process: McpProcess = {
      call: async () => {
        calls.count += 1;
        return { ok: true, result: { text: 'x'.repeat(10_000) } };
      },
    };
    // A reader that takes nothing until told: each write's callback is held.
    const held: (() => void)[] = [];
    let reading = false;
    const lines: string[] = [];
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        if (reading) done();
        else held.push(() => done());
      },
    });
    const input = new PassThrough();
    const session = await serveStdio(fakeRuntime([slowTool], process), {
      input,
      output,
      log: () => {},
      limits: { maxUnwrittenBytes: 50_000, maxCallsInFlight: 4 },
    });
    const send = (message: unknown) => input.write(`${JSON.stringify(asGeneration(generation, message))}\n`);
    if (generation === LEGACY) {
      send({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    for (let id = 1; id <= 200; id += 1) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {} } });
    input.end();
    await settle(1000);
    // Each reply is about 20 KB (the text twice): reading stops once three are unwritten, with at
    // most four more calls in flight then. Without the bound every call would run (four at a time).
    expect(calls.count).toBeLessThanOrEqual(3 + 4);
    reading = true;
    for (const done of held.splice(0)) done();
    await session.finished;
    const answered = lines.flatMap((text) => text.split('\n')).filter((line) => line.includes('"result"') && !line.includes('"init"'));
    expect(answered).toHaveLength(200);
    expect(calls.count).toBe(200);
    await session.close();
  });
});
