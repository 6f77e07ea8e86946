import { describe, expect, it } from 'vitest';
import { callTool, rawConnection, rawPost, startHttp } from './support/http-fixture.js';

const MIB = 1024 * 1024;

describe('replies on connections that are gone (pipelined, then destroyed)', () => {
  it('are released: the session answers the next call, and idle expiry still ends it', async () => {
    const fixture = await startHttp({ 'big.txt': 'x'.repeat(MIB) }, { sessionIdleMs: 1500 });
    try {
      const { headers } = await fixture.openSession();
      // Each connection pipelines large reads and never reads a byte; their replies, 2 MiB each
      // (the text travels twice), queue behind the first and fill the session's unwritten bound.
      const sockets = await Promise.all([1, 2, 3].map(() => rawConnection(fixture.url)));
      let id = 100;
      for (const socket of sockets) {
        const read = () =>
          rawPost(
            fixture.url,
            headers,
            JSON.stringify({
              jsonrpc: '2.0',
              id: id++,
              method: 'tools/call',
              params: { name: 'read_text_file', arguments: { path: 'big.txt', max_bytes: MIB } },
            }),
          );
        socket.write([read(), read(), read(), read()].join(''));
      }
      // Let the server take the requests and run the reads before the connections go.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const socket of sockets) socket.destroy();

      const answered = await callTool(fixture.url, headers, 1, 'read_text_file', { path: 'big.txt', max_bytes: 16 });
      expect(answered.message.result?.structuredContent).toMatchObject({ content: 'x'.repeat(16) });

      // Nothing holds the session now: idle past 1.5 s, it ends (polled without touching it).
      for (let waited = 0; waited < 60_000 && fixture.server.sessionCount > 0; waited += 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(fixture.server.sessionCount).toBe(0);
      expect((await callTool(fixture.url, headers, 2, 'get_working_directory', {})).status).toBe(404);
    } finally {
      await fixture.close();
    }
  }, 120_000);
});
