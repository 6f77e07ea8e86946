import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { peakRssOf, waitUntilIdle } from './support/process-stats.js';
import { INITIALIZE, post, startServe } from './support/http-serve.js';

const CONNECTIONS = 40;
const MIB = 1024 * 1024;
/** Each connection sends this much of a write's body and then never the rest. */
const SENT = 8 * MIB;

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
});
afterAll(async () => {
  await scratch?.remove();
});

interface Attacker {
  /** Resolves once the partial body has been handed to the kernel, or the server cut the connection. */
  readonly sent: Promise<void>;
  /** What the server answered before the body ended ('' for nothing yet). */
  answer(): string;
  readonly socket: Socket;
}

/** Sends all but the end of a large tools/call body, declared (Content-Length) or chunked, and stops. */
function partialBody(port: number, sessionId: string, id: number, chunked: boolean): Attacker {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"write_text_file","arguments":{"path":"f${id}.txt","content":"`;
  const body = head + 'a'.repeat(SENT - head.length);
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${SENT + 4096}`;
  const sent = new Promise<void>((resolve) => {
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Mcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-06-18\r\n${framing}\r\n\r\n`,
    );
    socket.write(chunked ? `${body.length.toString(16)}\r\n${body}\r\n` : body, () => resolve());
  });
  return { sent, socket, answer: () => answer };
}

describe('libos serve --http under many large request bodies that never end', () => {
  it('holds a bounded number of body bytes, turning the rest away with 503, and stays under 300 MiB', async () => {
    const server = await startServe(['--root', scratch.path]);
    const attackers: Attacker[] = [];
    try {
      const opened = await post(server.url, INITIALIZE);
      const sessionId = opened.headers.get('mcp-session-id')!;
      const port = Number(server.url.port);
      for (let index = 0; index < CONNECTIONS; index += 1) attackers.push(partialBody(port, sessionId, index + 10, index % 2 === 1));
      await Promise.all(attackers.map((attacker) => attacker.sent));
      await waitUntilIdle(server.child.pid!);
      const peak = await peakRssOf(server.child.pid!);
      console.error(`peak RSS of the server holding ${CONNECTIONS} unfinished 8 MiB bodies: ${Math.round(peak / MIB)} MiB`);
      // Unbounded, the server would hold every partial body: 320 MiB of them.
      expect(peak).toBeLessThan(300 * MIB);
      const refused = attackers.filter((attacker) => attacker.answer().startsWith('HTTP/1.1 503') || attacker.socket.destroyed);
      expect(refused.length).toBeGreaterThanOrEqual(CONNECTIONS / 2);
      // The server still serves: the held bodies do not stop a small request of another client.
      const other = await post(server.url, INITIALIZE);
      expect(other.status).toBe(200);
    } finally {
      for (const attacker of attackers) attacker.socket.destroy();
      expect(await server.stop()).toBe(0);
    }
  }, 240_000);
});
