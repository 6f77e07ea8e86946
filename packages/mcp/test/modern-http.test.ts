import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { HEADERS, startHttp } from './support/http-fixture.js';

type Started = Awaited<ReturnType<typeof startHttp>>;
let started: Started | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

async function modernClient(url: URL, token: string) {
  const client = new Client({ name: 'modern-test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('2026-07-28 over HTTP (stateless)', () => {
  it('lists the tools with cache hints and calls one with no session', async () => {
    started = await startHttp({ 'a.txt': 'hello\n' }, { token: 't0k' });
    const client = await modernClient(started.url, 't0k');
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain('read_text_file');
    const read = await client.callTool({ name: 'read_text_file', arguments: { path: 'a.txt' } });
    expect(read.structuredContent).toMatchObject({ content: 'hello\n' });
    expect(started.server.sessionCount).toBe(0);
    await client.close();
  });

  it('answers tools/list with ttlMs and cacheScope, and a bad token with 401', async () => {
    started = await startHttp({}, { token: 't0k' });
    const body = {
      jsonrpc: '2.0',
      id: 'x1',
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const headers = { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const refused = await fetch(started.url, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(refused.status).toBe(401);
    const answered = await fetch(started.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer t0k' }, body: JSON.stringify(body) });
    const json = (await answered.json()) as { id: unknown; result: { ttlMs: number; cacheScope: string } };
    expect(json.id).toBe('x1');
    expect(json.result.ttlMs).toBeGreaterThan(0);
    expect(json.result.cacheScope).toBe('public');
  });
});

describe('refusals outside a session answer under the request id', () => {
  it('a request naming an unknown session, and a 2025-era request without one', async () => {
    started = await startHttp({}, { token: 't0k' });
    const headers = { ...HEADERS, authorization: 'Bearer t0k' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'mine-7', method: 'tools/list' });
    const stale = await fetch(started.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': 'gone' }, body });
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ id: 'mine-7', error: { code: -32001 } });
    const sessionless = await fetch(started.url, { method: 'POST', headers, body });
    expect(sessionless.status).toBe(400);
    expect(await sessionless.json()).toMatchObject({ id: 'mine-7', error: { code: -32600 } });
  });
});
