import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { asGeneration, connectHttp, GENERATIONS, LEGACY, MODERN } from './support/generations.js';
import { HEADERS, INITIALIZE, postFrom, rawConnection, startHttp } from './support/http-fixture.js';

/** A slowloris connection: the start of a request's headers, never finished. */
async function slowloris(url: URL, localAddress?: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = await rawConnection(url, localAddress);
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(`POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\nx-slow: `);
  return { socket, closed };
}

const AUTHORIZED = { ...HEADERS, authorization: 'Bearer secret' };

describe.each(GENERATIONS)('connections before authentication, against a %s token holder', (generation) => {
  it('from many 127.x addresses, reopened as they close, never keep the token holder out', async () => {
    const fixture = await startHttp(
      { 'a.txt': 'hello' },
      { token: 'secret', maxConnections: 24, reservedForAuthenticated: 4, authenticationTimeoutMs: 30_000 },
    );
    let attacking = true;
    const held: Socket[] = [];
    // `nobody`: 48 loopback sources, each reopening its connection as soon as the server closes it.
    const attack = async (index: number) => {
      while (attacking) {
        const connection = await slowloris(fixture.url, `127.0.${1 + Math.floor(index / 200)}.${10 + (index % 200)}`).catch(() => undefined);
        if (connection === undefined) continue;
        held.push(connection.socket);
        if (!attacking) connection.socket.destroy();
        await connection.closed;
      }
    };
    const attackers = Array.from({ length: 48 }, (_, index) => attack(index));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The token holder is answered, each request on a new connection (2025: after opening a session).
      let headers: Record<string, string> = {
        ...AUTHORIZED,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'read_text_file',
      };
      if (generation === LEGACY) {
        const opened = await postFrom(fixture.url, '127.0.0.1', AUTHORIZED, JSON.stringify(INITIALIZE));
        expect(opened.status).toBe(200);
        headers = { ...AUTHORIZED, 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
        const initialized = await postFrom(
          fixture.url,
          '127.0.0.1',
          headers,
          JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        );
        expect(initialized.status).toBe(202);
      }
      for (let id = 1; id <= 10; id += 1) {
        const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } };
        const answered = await postFrom(fixture.url, '127.0.0.1', headers, JSON.stringify(asGeneration(generation, call)));
        expect(answered.status).toBe(200);
        expect(answered.text).toContain('hello');
      }
      // A client without the token gets 401 and no connection to try again on.
      const refused = await postFrom(fixture.url, '127.0.0.3', HEADERS, JSON.stringify(INITIALIZE));
      expect(refused.status).toBe(401);
      expect(refused.headers.connection).toBe('close');
    } finally {
      attacking = false;
      for (const socket of held) socket.destroy();
      await Promise.all(attackers);
      await fixture.close();
    }
  }, 60_000);
});

describe('connections before authentication', () => {
  // Headers that never finish name no generation: one test for both.
  it('that trickle their headers are closed once the time to authenticate is up', async () => {
    const fixture = await startHttp({}, { token: 'secret', authenticationTimeoutMs: 500 });
    const held: { socket: Socket; closed: Promise<void> }[] = [];
    try {
      for (let index = 0; index < 5; index += 1) held.push(await slowloris(fixture.url, `127.0.0.${20 + index}`));
      const trickle = setInterval(() => {
        for (const connection of held) if (!connection.socket.destroyed) connection.socket.write('a');
      }, 50);
      await Promise.all(held.map((connection) => connection.closed));
      clearInterval(trickle);
    } finally {
      for (const connection of held) connection.socket.destroy();
      await fixture.close();
    }
  }, 30_000);
});

describe.each(GENERATIONS)('authenticated clients of %s', (generation) => {
  const title =
    generation === LEGACY
      ? 'keep 32 sessions from one address at once, 50 calls each, all answered'
      : '32 of them (no session) from one address at once, 50 calls each, all answered';
  it(title, async () => {
    const fixture = await startHttp({ 'a.txt': 'hello' }, { token: 'secret', maxConnections: 128 });
    try {
      const clients = await Promise.all(Array.from({ length: 32 }, () => connectHttp(fixture.url, generation, { authorization: 'Bearer secret' })));
      const failures: string[] = [];
      await Promise.all(
        clients.map(async (client, index) => {
          for (let id = 1; id <= 50; id += 1) {
            try {
              const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } };
              const answer = await client.exchange(call);
              if (answer.status !== 200 || answer.answers[0]?.result?.structuredContent?.content !== 'hello')
                failures.push(`${index}/${id}: ${answer.status}`);
            } catch (error) {
              failures.push(`${index}/${id}: ${error instanceof Error ? error.message : String(error)}`);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
    } finally {
      await fixture.close();
    }
  }, 120_000);
});
