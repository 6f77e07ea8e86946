import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { deleteSession, INITIALIZE, startServe, type ServeProcess } from './support/http-serve.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let server: ServeProcess;
beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
  server = await startServe(['--root', scratch.path]);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

/** An initialize with a chosen Host header and no Origin, as a DNS-rebound page's request may come. */
function initializeAs(host: string): Promise<{ status: number; sessionId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      server.url,
      { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, sessionId: response.headers['mcp-session-id'] as string | undefined }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(INITIALIZE));
  });
}

describe('libos serve --http on loopback without a token, reached through a rebound name', () => {
  it('answers 403 to a Host that is not a loopback name, with no Origin to check', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${server.url.port}`,
      `127.0.0.1.evil.example:${server.url.port}`,
      `localhost.:${server.url.port}`,
    ]) {
      expect({ host, status: (await initializeAs(host)).status }).toEqual({ host, status: 403 });
    }
  });

  it('serves loopback names on any port (a tunnel may forward another port)', async () => {
    for (const host of [`127.0.0.1:${server.url.port}`, `localhost:${server.url.port}`, 'LOCALHOST:9000', '[::1]:9000']) {
      const opened = await initializeAs(host);
      expect({ host, status: opened.status }).toEqual({ host, status: 200 });
      expect(await deleteSession(server.url, opened.sessionId!)).toBe(200);
    }
  });
});
