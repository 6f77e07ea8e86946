import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HEADERS, INITIALIZE, postFrom, rawConnection, startHttp } from './support/http-fixture.js';

/** A slowloris connection: the start of a request's headers, never finished. */
async function slowloris(url: URL): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = await rawConnection(url);
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\nx-slow: `);
  return { socket, closed };
}

describe('connections before authentication', () => {
  it('are bounded per source and in total, and a connection sending headers slowly is closed', async () => {
    const fixture = await startHttp({}, { token: 'secret', maxConnectionsPerSource: 4, maxConnections: 6, headersTimeoutMs: 1000 });
    const held: { socket: Socket; closed: Promise<void> }[] = [];
    try {
      // One source with no token opens 20: all but 4 are closed at once.
      for (let index = 0; index < 20; index += 1) held.push(await slowloris(fixture.url));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(held.filter((connection) => !connection.socket.destroyed && connection.socket.readyState === 'open').length).toBeLessThanOrEqual(4);

      // Another source still gets in and is served.
      const opened = await postFrom(fixture.url, '127.0.0.2', { ...HEADERS, authorization: 'Bearer secret' }, JSON.stringify(INITIALIZE));
      expect(opened.status).toBe(200);
      expect(opened.headers['mcp-session-id']).toBeTypeOf('string');
      // A client without the token gets 401 and no connection to try again on.
      const refused = await postFrom(fixture.url, '127.0.0.3', HEADERS, JSON.stringify(INITIALIZE));
      expect(refused.status).toBe(401);
      expect(refused.headers.connection).toBe('close');

      // The slow ones the server kept are closed once their header time is up.
      await Promise.all(held.map((connection) => connection.closed));
    } finally {
      for (const connection of held) connection.socket.destroy();
      await fixture.close();
    }
  }, 60_000);
});
