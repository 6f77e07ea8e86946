import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answersIn, asGeneration, connectHttp, GENERATIONS, MODERN, type Served, serve } from './support/generations.js';
import { rawConnection, rawPost } from './support/http-fixture.js';

const TOKEN = 'secret';
const CALL = { jsonrpc: '2.0', id: 'mine', method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } };

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** Everything the server writes on `socket` until it closes it. */
function readUntilClosed(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

describe.each(GENERATIONS)('token, Origin and Host checks on a %s request', (generation) => {
  /** The headers a request of this generation carries, from a client that holds the token. */
  async function authorized(): Promise<Record<string, string>> {
    served = await serve('http', { files: { 'a.txt': 'hello' }, http: { token: TOKEN } });
    const connection = await connectHttp(served.url!, generation, { authorization: `Bearer ${TOKEN}` });
    const routing = generation === MODERN ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'read_text_file' } : {};
    return { ...connection.headers, ...routing };
  }
  const body = JSON.stringify(asGeneration(generation, CALL));
  const post = (headers: Record<string, string>) => fetch(served!.url!, { method: 'POST', headers, body });

  it('answers with the token, and refuses a missing or wrong one 401 with its connection closed, running nothing', async () => {
    const headers = await authorized();
    const answered = await post(headers);
    expect(answersIn(await answered.text())[0]).toMatchObject({ id: 'mine', result: { structuredContent: { content: 'hello' } } });
    for (const bearer of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`]) {
      const { authorization: _dropped, ...without } = headers;
      const refused = await post(bearer === undefined ? without : { ...without, authorization: bearer });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect(refused.headers.get('connection')).toBe('close');
      expect(await refused.text()).not.toContain('hello');
    }
  });

  it('refuses a foreign browser Origin and a Host that does not name loopback with 403', async () => {
    const headers = await authorized();
    expect((await post({ ...headers, origin: 'https://evil.example' })).status).toBe(403);
    // fetch will not lie about Host: the raw bytes do.
    const socket = await rawConnection(served!.url!);
    const seen = readUntilClosed(socket);
    socket.write(rawPost(served!.url!, headers, body).replace(`host: ${served!.url!.host}`, 'host: rebound.example'));
    expect(await seen).toMatch(/^HTTP\/1\.1 403 /u);
  });

  it('refuses Authorization given twice with 400', async () => {
    const headers = await authorized();
    const socket = await rawConnection(served!.url!);
    const seen = readUntilClosed(socket);
    const twice = rawPost(served!.url!, headers, body).replace('\r\n\r\n', `\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`);
    socket.write(twice);
    expect(await seen).toMatch(/^HTTP\/1\.1 400 /u);
  });
});
