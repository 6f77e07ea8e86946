import { describe, expect, it } from 'vitest';
import { asGeneration, GENERATIONS, LEGACY, MODERN, serve } from './support/generations.js';
import { rawConnection, rawPost } from './support/http-fixture.js';

const MIB = 1024 * 1024;
const READ_BIG = { name: 'read_text_file', arguments: { path: 'big.txt', max_bytes: MIB } };

describe.each(GENERATIONS)('replies on connections that are gone (pipelined, never read, then destroyed), %s', (generation) => {
  const title =
    generation === LEGACY
      ? 'are released: the session answers the next call, and idle expiry still ends it'
      : 'are released: the next call is answered and shutdown does not wait on them (no session, so no idle expiry)';
  it(title, async () => {
    // A drain longer than the test: a reply never released would hold shutdown past it.
    const served = await serve('http', { files: { 'big.txt': 'x'.repeat(MIB) }, http: { sessionIdleMs: 1500, drainMs: 600_000 } });
    const url = served.url!;
    let closed = false;
    try {
      const connection = await served.connect(generation);
      const routing = generation === MODERN ? { 'mcp-method': 'tools/call', 'mcp-name': 'read_text_file' } : {};
      // Each connection pipelines large reads and never reads a byte; their replies, 2 MiB each
      // (the text travels twice), queue behind the first and fill what the client may hold.
      const sockets = await Promise.all([1, 2, 3].map(() => rawConnection(url)));
      let id = 100;
      for (const socket of sockets) {
        socket.on('error', () => {});
        const read = () =>
          rawPost(
            url,
            { ...connection.headers, ...routing },
            JSON.stringify(asGeneration(generation, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: READ_BIG })),
          );
        socket.write([read(), read(), read(), read()].join(''));
      }
      // Let the server take the requests and run the reads before the connections go.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const meanwhile = { name: 'read_text_file', arguments: { path: 'big.txt', max_bytes: 8 } };
      // Under 2026-07-28 those replies hold only their own connections' slots: a call on another
      // connection is answered meanwhile. (A 2025 session's unwritten bound is the session's own:
      // it is full, so its next call waits until those replies are released, as docs/mcp.md says.)
      if (generation === MODERN) {
        expect(await connection.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: meanwhile })).toMatchObject({
          result: { structuredContent: { content: 'x'.repeat(8) } },
        });
      }
      for (const socket of sockets) socket.destroy();

      const answered = await connection.request({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { ...meanwhile, arguments: { path: 'big.txt', max_bytes: 16 } },
      });
      expect(answered.result?.structuredContent).toMatchObject({ content: 'x'.repeat(16) });

      if (generation === LEGACY) {
        // Nothing holds the session now: idle past 1.5 s, it ends (polled without touching it).
        for (let waited = 0; waited < 60_000 && (served.http?.sessionCount ?? 0) > 0; waited += 200) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(served.http?.sessionCount).toBe(0);
        expect((await connection.exchange({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: meanwhile })).status).toBe(404);
      }
      await served.close();
      closed = true;
    } finally {
      if (!closed) await served.close();
    }
  }, 120_000);
});
