import { describe, expect, it } from 'vitest';
import { asGeneration, GENERATIONS, HEADERS, LEGACY, MODERN, serve } from './support/generations.js';

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'a.txt' } } };

describe.each(GENERATIONS)('POSTs of %s over HTTP', (generation) => {
  const title =
    generation === LEGACY
      ? "answer a call as one JSON body under the session's id, and refuse what the SDK transport refuses"
      : 'answer a call as one JSON body with no session id (none exists), and refuse what the SDK transport refuses (no Accept check: the answer is JSON)';
  it(title, async () => {
    const served = await serve('http', { files: { 'a.txt': 'hello' } });
    try {
      const url = served.url!;
      const connection = await served.connect(generation);
      const routing = generation === MODERN ? { 'mcp-method': 'tools/call', 'mcp-name': 'read_text_file', 'mcp-protocol-version': MODERN } : {};
      const headers: Record<string, string> = { ...connection.headers, ...routing };
      const body = JSON.stringify(asGeneration(generation, CALL));
      const answered = await fetch(url, { method: 'POST', headers, body });
      expect(answered.status).toBe(200);
      expect(answered.headers.get('content-type')).toMatch(/^application\/json/u);
      expect(answered.headers.get('mcp-session-id')).toBe(generation === LEGACY ? headers['mcp-session-id'] : null);
      expect(await answered.json()).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { content: 'hello' } } });

      // 2025-era POSTs must accept SSE too (the session may stream). A 2026-07-28 answer is always one
      // JSON body and the SDK's modern entry reads no Accept header: not a refusal on that generation.
      const jsonOnly = await fetch(url, { method: 'POST', headers: { ...headers, accept: 'application/json' }, body });
      expect(jsonOnly.status).toBe(generation === LEGACY ? 406 : 200);
      const text = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body });
      expect(text.status).toBe(415);
      const future = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-protocol-version': '2099-01-01' }, body });
      expect(future.status).toBe(400);
      expect(await future.text()).toMatch(/protocol version/iu);

      const noteBody = JSON.stringify(asGeneration(generation, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }));
      const noteRouting = generation === MODERN ? { 'mcp-method': 'notifications/roots/list_changed', 'mcp-protocol-version': MODERN } : {};
      const note = await fetch(url, { method: 'POST', headers: { ...connection.headers, ...noteRouting }, body: noteBody });
      expect(note.status).toBe(202);
      if (generation === MODERN) {
        // The routing headers must agree with the body (2026-07-28): a call named otherwise is refused.
        const lying = await fetch(url, { method: 'POST', headers: { ...headers, 'mcp-name': 'write_text_file' }, body });
        expect(lying.status).toBe(400);
      }
      if (generation === LEGACY) {
        // A second initialize is the SDK transport's to refuse.
        const initialize = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '0' } };
        const again = await fetch(url, {
          method: 'POST',
          headers: { ...HEADERS, 'mcp-session-id': headers['mcp-session-id'] ?? '' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'initialize', params: initialize }),
        });
        expect(again.status).toBe(400);
      }
    } finally {
      await served.close();
    }
  });
});
