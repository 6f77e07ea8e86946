import { afterEach, describe, expect, it } from 'vitest';
import { asGeneration, MODERN, type Served, serve } from './support/generations.js';

// A 2026-07-28 `subscriptions/listen` over stdio is a request the SDK keeps open until the client
// cancels it or the connection closes. The channel answers each request once and counts it as a
// call until then: listens must not hold the connection's call slots or keep its end from draining.

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const listen = (id: string) => ({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } });

describe('MCP 2026-07-28 subscriptions/listen over stdio', () => {
  it('answers every listen, and a call sent after more listens than the call slots still runs', async () => {
    served = await serve('stdio', { files: { 'a.txt': 'hello\n' } });
    const connection = await served.connect(MODERN);
    const ids = Array.from({ length: 9 }, (_, index) => `listen-${index}`);
    const read = { jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } };
    // All nine listens and the read are written at once, before any is answered.
    const lines = [...ids.map(listen), read].map((message) => JSON.stringify(asGeneration(MODERN, message)));
    const { answers } = await connection.exchange(lines.join('\n'));
    const answerOf = (id: string) => answers.find((answer) => answer.id === id);
    expect(answerOf('after')?.result?.structuredContent?.content).toBe('hello\n');
    for (const id of ids) {
      expect(answerOf(id)?.error?.code).toBe(-32601);
      expect(answerOf(id)?.error?.message).toMatch(/subscriptions\/listen is not served over stdio/u);
    }
  });

  it('finishes once the input ends after a listen (nothing is left in flight)', async () => {
    served = await serve('stdio');
    const connection = await served.connect(MODERN);
    await connection.request(listen('only'));
    const { input, session } = served.stdio!;
    input.end();
    await session.finished;
    await session.drained();
  });
});
