import { describe, expect, it } from 'vitest';
import { HEADERS, startHttp } from './support/http-fixture.js';

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } });

describe("an initialized session's POSTs (answered without the SDK's web-stream bridge)", () => {
  it('answer a call as one JSON body, and refuse what the SDK transport refuses', async () => {
    const fixture = await startHttp({ 'a.txt': 'hello' });
    try {
      const { id, headers } = await fixture.openSession();
      const answered = await fetch(fixture.url, { method: 'POST', headers, body: CALL });
      expect(answered.status).toBe(200);
      expect(answered.headers.get('content-type')).toBe('application/json');
      expect(answered.headers.get('mcp-session-id')).toBe(id);
      expect(await answered.json()).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { content: 'hello' } } });

      const jsonOnly = await fetch(fixture.url, { method: 'POST', headers: { ...headers, accept: 'application/json' }, body: CALL });
      expect(jsonOnly.status).toBe(406);
      const text = await fetch(fixture.url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: CALL });
      expect(text.status).toBe(415);
      const future = await fetch(fixture.url, { method: 'POST', headers: { ...headers, 'mcp-protocol-version': '2099-01-01' }, body: CALL });
      expect(future.status).toBe(400);
      expect(await future.text()).toContain('Unsupported protocol version');

      const note = await fetch(fixture.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }),
      });
      expect(note.status).toBe(202);
      // A second initialize is the SDK transport's to refuse.
      const again = await fetch(fixture.url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': id },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 8,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '0' } },
        }),
      });
      expect(again.status).toBe(400);
    } finally {
      await fixture.close();
    }
  });
});
