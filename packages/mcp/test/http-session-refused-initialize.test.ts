import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import { describe, expect, it } from 'vitest';
import { createMcpHttpHandler } from '../src/http/create-mcp-http-handler.js';
import { HEADERS, INITIALIZE } from './support/http-fixture.js';

// A 2025-era session hands an `initialize` to the SDK transport, which refuses it once the session
// is initialized (400, "already initialized") without ever delivering it. Whatever the session
// kept to answer that request must go with the refusal: a client repeating it (each under a new
// id) must not grow what its session holds.

/** Collects garbage now (V8's own gc, reached through a fresh context). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function post(port: number, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('a 2025-era session, initialize sent again', () => {
  it('is refused and leaves nothing of the request held by the session', async () => {
    const { provider } = createMemfsTestbed();
    const runtime = await createRuntime({ provider });
    const handler = createMcpHttpHandler(runtime, { log: () => {} });
    const responses: WeakRef<ServerResponse>[] = [];
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      responses.push(new WeakRef(response));
      void handler.handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const opened = await new Promise<string>((resolve, reject) => {
        const body = JSON.stringify(INITIALIZE);
        const sent = httpRequest(
          { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(String(response.headers['mcp-session-id'])));
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
      const session = { ...HEADERS, 'mcp-session-id': opened, 'mcp-protocol-version': '2025-06-18' };
      responses.length = 0;
      for (let id = 1; id <= 20; id += 1) {
        const again = await post(port, session, JSON.stringify({ ...INITIALIZE, id }));
        expect(again.status).toBe(400);
        expect(again.text).toMatch(/already initialized/u);
      }
      // Let the closed connections' last events run, then collect.
      await new Promise((resolve) => setTimeout(resolve, 50));
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 0));
      collectGarbage();
      expect(handler.sessionCount).toBe(1);
      expect(responses.filter((response) => response.deref() !== undefined)).toHaveLength(0);
    } finally {
      await handler.close();
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
    }
  });
});
