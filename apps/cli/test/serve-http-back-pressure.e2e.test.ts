import { connect, type Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { peakRssOf, waitUntilIdle } from './support/process-stats.js';
import { INITIALIZE, post, startServe } from './support/http-serve.js';

const REQUESTS = 60;
const MIB = 1024 * 1024;
const DRAIN_SECONDS = '1';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
  // 1 MiB of backslashes: each read's reply is about 6 MiB (2 as structuredContent, 4 as escaped text).
  await writeFile(join(scratch.path, 'big.txt'), '\\'.repeat(MIB));
});
afterAll(async () => {
  await scratch?.remove();
});

/** Opens a session by a raw initialize and its notification; returns the session id. */
async function openSession(url: URL): Promise<string> {
  const sessionId = (await post(url, INITIALIZE)).headers.get('mcp-session-id')!;
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
  return sessionId;
}

/** Sends one raw HTTP POST on its own connection and never reads the answer until told to. */
function floodRequest(port: number, sessionId: string, id: number): Socket {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'read_text_file', arguments: { path: 'big.txt', max_bytes: MIB } },
  });
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Mcp-Session-Id: ${sessionId}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

/** Reads a paused socket to its end and says whether it carried the full read's answer. */
function readAnswer(socket: Socket): Promise<boolean> {
  return new Promise((resolve) => {
    let tail = '';
    let found = false;
    socket.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('latin1')).slice(-200_000);
      if (tail.includes(`"bytes_read":${MIB}`)) found = true;
    });
    socket.on('close', () => resolve(found));
    socket.on('error', () => resolve(found));
    socket.resume();
  });
}

describe('libos serve --http whose client floods one session and never reads', () => {
  it('stops taking the session’s requests at its bounds, stays under 300 MiB, then answers all once the client reads', async () => {
    const server = await startServe(['--root', scratch.path]);
    try {
      const sessionId = await openSession(server.url);
      const port = Number(server.url.port);
      const sockets = Array.from({ length: REQUESTS }, (_, index) => floodRequest(port, sessionId, index + 10));
      await waitUntilIdle(server.child.pid!);
      const peak = await peakRssOf(server.child.pid!);
      console.error(`peak RSS of the flooded HTTP server: ${Math.round(peak / MIB)} MiB`);
      // Unbounded, the server would hold every reply: about 360 MB of replies and their copies.
      expect(peak).toBeLessThan(300 * MIB);
      const answered = await Promise.all(sockets.map(readAnswer));
      expect(answered.filter(Boolean)).toHaveLength(REQUESTS);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 240_000);
});

describe('libos serve --http shut down while a client holds its replies unread', () => {
  it('waits --drain-seconds for them, then ends that session and exits 0, saying so', async () => {
    const server = await startServe(['--root', scratch.path, '--drain-seconds', DRAIN_SECONDS]);
    const sessionId = await openSession(server.url);
    const port = Number(server.url.port);
    // Far more reply bytes than the socket buffers take: the last replies stay unwritten.
    const sockets = Array.from({ length: 12 }, (_, index) => floodRequest(port, sessionId, index + 10));
    try {
      await waitUntilIdle(server.child.pid!);
      // Without the deadline this would wait as long as the client does, which is forever.
      expect(await server.stop()).toBe(0);
      expect(server.stderr()).toMatch(/drain: 1 session\(s\) still had replies unwritten after 1 s; ending them/u);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 120_000);
});
