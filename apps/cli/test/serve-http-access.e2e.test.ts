import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { connectHttp, deleteSession, INITIALIZE, post, startServe, type ServeProcess } from './support/http-serve.js';

const TOKEN = 's3cret-token-for-tests';
let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let server: ServeProcess;
let tokenFile: string;

beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
  tokenFile = join(scratch.path, 'token');
  await writeFile(tokenFile, `${TOKEN}\nsecond line is ignored\n`);
  server = await startServe(['--root', scratch.path, '--token-file', tokenFile, '--max-sessions', '2']);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

/** The status of an initialize sent with exactly these header lines (fetch would merge repeated ones). */
function statusWithHeaders(lines: readonly string[]): Promise<{ status: number; sessionId: string | undefined }> {
  const body = JSON.stringify(INITIALIZE);
  const head = [
    'POST /mcp HTTP/1.1',
    ...lines,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(server.url.port), server.url.hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/u.exec(answer);
      if (status !== null && answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve({ status: Number(status[1]), sessionId: /^mcp-session-id: *(\S+)/imu.exec(answer)?.[1] });
      }
    });
    socket.on('error', reject);
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
}

describe('libos serve --http: who gets in', () => {
  it('answers 400 to a request naming Host, Authorization or Origin twice, whichever copy is the right one', async () => {
    const host = `Host: 127.0.0.1:${server.url.port}`;
    const right = `Authorization: Bearer ${TOKEN}`;
    const statusOf = async (lines: readonly string[]) => (await statusWithHeaders(lines)).status;
    expect(await statusOf([host, right, 'Authorization: Bearer wrong'])).toBe(400);
    expect(await statusOf([host, 'Authorization: Bearer wrong', right])).toBe(400);
    expect(await statusOf([host, 'Host: evil.example', right])).toBe(400);
    expect(await statusOf([host, right, `Origin: http://127.0.0.1:${server.url.port}`, 'Origin: http://evil.example'])).toBe(400);
    // The same request with each header once is served: the refusals above are about the repetition.
    const served = await statusWithHeaders([host, right]);
    expect(served.status).toBe(200);
    expect(await deleteSession(server.url, served.sessionId!, { authorization: `Bearer ${TOKEN}` })).toBe(200);
  });

  it('names the provider, the directory and the address on its start-up line, and says a token is required', () => {
    expect(server.stderr()).toMatch(
      new RegExp(
        `serving \\d+ tools \\(local provider, ${scratch.path.replace(/[/\\.]/gu, '\\$&')}\\) on http://127\\.0\\.0\\.1:\\d+/mcp \\(bearer token required: the one in --token-file\\)`,
        'u',
      ),
    );
  });

  it('answers 401 without the token, with a wrong one, and with the token only in the query string', async () => {
    expect((await post(server.url, INITIALIZE)).status).toBe(401);
    expect((await post(server.url, INITIALIZE, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(server.url, INITIALIZE, { authorization: `Basic ${TOKEN}` })).status).toBe(401);
    const query = new URL(server.url);
    query.searchParams.set('access_token', TOKEN);
    query.searchParams.set('token', TOKEN);
    expect((await post(query, INITIALIZE)).status).toBe(401);
  });

  it('answers 403 to a foreign browser Origin even with the token, and serves its own origin', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(server.url, INITIALIZE, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(server.url, INITIALIZE, { ...auth, origin: `http://localhost:${server.url.port}.evil.example` })).status).toBe(403);
    const own = await post(server.url, INITIALIZE, { ...auth, origin: `http://localhost:${server.url.port}` });
    expect(own.status).toBe(200);
    expect(await deleteSession(server.url, own.headers.get('mcp-session-id')!, auth)).toBe(200);
  });

  it('refuses a batch, a line that is not JSON and a request before initialize, with exact JSON-RPC errors', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const batch = await post(
      server.url,
      [
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        { jsonrpc: '2.0', id: 8, method: 'ping' },
      ],
      auth,
    );
    expect(batch.status).toBe(400);
    expect(JSON.parse(batch.text)).toEqual([
      expect.objectContaining({ id: 7, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 8, error: expect.objectContaining({ code: -32600 }) }),
    ]);
    const garbage = await post(server.url, '{"jsonrpc": "2.0", ', auth);
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.text)).toMatchObject({ id: null, error: { code: -32700 } });
    const early = await post(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, auth);
    expect(early.status).toBe(400);
    const unknown = await post(server.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { ...auth, 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
  });

  it('answers 503 to a session past --max-sessions, and takes one again once a session ends', async () => {
    const first = await connectHttp(server.url, { token: TOKEN });
    const second = await connectHttp(server.url, { token: TOKEN });
    const third = await post(server.url, INITIALIZE, { authorization: `Bearer ${TOKEN}` });
    expect(third.status).toBe(503);
    expect(third.text).toContain('at most 2');
    await second.transport.terminateSession();
    await second.client.close();
    const again = await connectHttp(server.url, { token: TOKEN });
    expect((await again.call('get_working_directory')).isError ?? false).toBe(false);
    for (const session of [first, again]) {
      await session.transport.terminateSession();
      await session.client.close();
    }
  });
});

describe('libos serve: start-up refusals', () => {
  it('refuses to bind a non-loopback address without a token, and to start without --root', async () => {
    const open = await runLibos(['serve', '--http', '0.0.0.0:0', '--root', scratch.path]);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('without a token');
    const rootless = await runLibos(['serve', '--http', '127.0.0.1:0']);
    expect(rootless.status).toBe(2);
    expect(rootless.stderr).toContain('--root DIR (or --mount NAME=DIR) is required');
    const bad = await runLibos(['serve', '--http', 'nowhere', '--root', scratch.path]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--http must be HOST:PORT');
  });
});
