import { spawn, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE } from './support/http-serve.js';
import { LIBOS_BIN, temporaryDirectory } from './support/libos-binary.js';
import { messageOf, postFrom } from './support/post-from.js';

const FD_LIMIT = 128;
const havePrlimit = spawnSync('prlimit', ['--version']).status === 0;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer flood-test-token' };

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  await writeFile(join(scratch.path, 'note.txt'), 'still here\n');
});
afterAll(async () => {
  await scratch?.remove();
});

/** `libos serve` with at most FD_LIMIT file descriptors, and its URL once it serves. */
function startLimited() {
  const child = spawn(
    'prlimit',
    [`--nofile=${FD_LIMIT}:${FD_LIMIT}`, process.execPath, LIBOS_BIN, 'serve', '--http', '127.0.0.1:0', '--root', scratch.path],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LIBOS_TOKEN: 'flood-test-token', NO_COLOR: '1' },
    },
  );
  let log = '';
  const url = new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /on (http:\/\/\S+\/mcp)/u.exec(log);
      if (match !== null) resolve(new URL(match[1]!));
    });
    child.once('exit', (status) => reject(new Error(`libos serve exited with ${status}: ${log}`)));
  });
  return { child, url, log: () => log };
}

async function call(url: URL, sessionHeaders: Record<string, string>, id: number, name: string, args: unknown) {
  const answered = await postFrom(
    url,
    '127.0.0.2',
    sessionHeaders,
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  );
  return messageOf(answered.text) as { result: { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] } };
}

describe.skipIf(!havePrlimit)('libos serve under a connection flood without the token (slowloris), fd limit lowered', () => {
  it('keeps serving other sources: sessions open before and after the flood read their files', async () => {
    const server = startLimited();
    const flood: Socket[] = [];
    try {
      const url = await server.url;
      const opened = await postFrom(url, '127.0.0.2', HEADERS, JSON.stringify(INITIALIZE));
      expect(opened.status).toBe(200);
      const session = { ...HEADERS, 'mcp-session-id': String(opened.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
      await postFrom(url, '127.0.0.2', session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

      // Three times the fd limit of connections from one source, each sending half a header.
      for (let index = 0; index < FD_LIMIT * 3; index += 1) {
        const socket = connect({ host: url.hostname, port: Number(url.port) });
        socket.on('error', () => {});
        socket.on('connect', () => socket.write(`POST /mcp HTTP/1.1\r\nhost: ${url.host}\r\nx-slow: `));
        flood.push(socket);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));

      const before = await call(url, session, 1, 'read_text_file', { path: 'note.txt' });
      expect(before.result.isError).toBeFalsy();
      expect(before.result.structuredContent).toMatchObject({ content: 'still here\n' });
      const again = await postFrom(url, '127.0.0.2', HEADERS, JSON.stringify(INITIALIZE));
      expect(again.status).toBe(200);
      const listing = await call(url, session, 2, 'read_directory', { path: '.' });
      expect(listing.result.isError).toBeFalsy();
    } finally {
      for (const socket of flood) socket.destroy();
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
