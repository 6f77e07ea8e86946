import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { HANDSHAKE, startRawMcp } from './support/raw-mcp.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
beforeEach(async () => {
  scratch = await temporaryDirectory();
});
afterEach(async () => {
  await scratch.remove();
});

function answerTo(messages: Record<string, unknown>[], id: unknown) {
  return messages.filter((message) => Object.is(message.id, id) && ('result' in message || 'error' in message));
}

describe('libos mcp at end of input', () => {
  it('answers a write sent just before stdin closes, every time', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const server = startRawMcp(['--root', scratch.path]);
      for (const message of HANDSHAKE) server.send(message);
      server.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'write_text_file', arguments: { path: `w${attempt}.txt`, content: 'kept' } },
      });
      // stdin closes right behind the request, before any answer could have been written.
      const { status, messages } = await server.finish();
      expect(status).toBe(0);
      expect(answerTo(messages, 1)).toEqual([
        {
          jsonrpc: '2.0',
          id: 1,
          result: { structuredContent: { path: `w${attempt}.txt`, bytes_written: 4, created: true }, content: [expect.anything()] },
        },
      ]);
      expect(await readFile(join(scratch.path, `w${attempt}.txt`), 'utf8')).toBe('kept');
    }
  });
});

describe('libos mcp JSON-RPC errors (docs/mcp.md)', () => {
  it('answers every request, whatever is wrong with it, and keeps the session', async () => {
    const server = startRawMcp(['--provider', 'memfs']);
    for (const message of HANDSHAKE) server.send(message);
    server.send('{"jsonrpc":"2.0","id":"cut","method":"tools/li');
    server.send([{ jsonrpc: '2.0', id: 'in-batch', method: 'tools/list' }]);
    server.send('{"jsonrpc":"2.0","id":1e308,"method":"tools/call","params":{"name":"get_working_directory","arguments":{}}}');
    server.send({ jsonrpc: '2.0', id: 'array', method: 'tools/call', params: { name: 'read_directory', arguments: ['.'] } });
    server.send({ jsonrpc: '2.0', id: 'not-a-request' });
    server.send({ jsonrpc: '2.0', id: null, method: 'ping' });
    server.send({ jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'get_working_directory', arguments: {} } });
    const { status, messages } = await server.finish();
    expect(status).toBe(0);

    expect(messages).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    expect(answerTo(messages, 'in-batch')).toEqual([
      { jsonrpc: '2.0', id: 'in-batch', error: { code: -32600, message: expect.stringMatching(/batch/u) } },
    ]);
    expect(answerTo(messages, 1e308)).toEqual([
      { jsonrpc: '2.0', id: 1e308, result: { structuredContent: { working_directory: '.' }, content: [expect.anything()] } },
    ]);
    const [array] = answerTo(messages, 'array') as { result: { isError: boolean; content: { text: string }[] } }[];
    expect(array?.result.isError).toBe(true);
    expect(JSON.parse(array!.result.content[0]!.text)).toMatchObject({ error: { code: 'invalid_arguments', effect: 'none' } });
    expect(answerTo(messages, 'not-a-request')).toEqual([
      { jsonrpc: '2.0', id: 'not-a-request', error: { code: -32600, message: expect.any(String) } },
    ]);
    expect(messages).toContainEqual({ jsonrpc: '2.0', id: null, result: {} });
    expect(answerTo(messages, 'after')).toHaveLength(1);
    // Nothing else was sent: one answer for the handshake, one per line above.
    expect(messages).toHaveLength(8);
  });
});
