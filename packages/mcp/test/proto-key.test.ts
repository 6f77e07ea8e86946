import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { createMemfsProvider } from '@libos/provider-memfs';
import { createRuntime } from '@libos/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHttpHandler } from '../src/http/create-mcp-http-handler.js';
import { serveStdio } from '../src/serve-stdio.js';

// Typed by hand: JSON.stringify of an object literal would not keep a `__proto__` key.
const CALL =
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_text_file","arguments":{"path":"a.txt","content":"x","__proto__":{"polluted":true}}}}';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

let runtime: Awaited<ReturnType<typeof createRuntime>>;
beforeAll(async () => {
  runtime = await createRuntime({ provider: createMemfsProvider() });
});
afterAll(async () => {
  await runtime.close();
});

/** What the library itself answers for the same arguments. */
async function libraryAnswer() {
  const outcome = await runtime.spawn().call('write_text_file', JSON.parse('{"path":"a.txt","content":"x","__proto__":{"polluted":true}}'));
  expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  return (outcome as { error: unknown }).error;
}

function failureOf(reply: { result: { isError?: boolean; content: { text: string }[] } }) {
  expect(reply.result.isError).toBe(true);
  return (JSON.parse(reply.result.content[0]!.text) as { error: unknown }).error;
}

describe('a __proto__ key in tools/call arguments', () => {
  it('is refused over stdio as the library refuses it, and nothing is written', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: string[] = [];
    let buffered = '';
    output.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
    });
    const session = await serveStdio(runtime, { input, output, log: () => {} });
    input.write(`${JSON.stringify(INITIALIZE)}\n`);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    input.end(`${CALL}\n`);
    await session.finished;
    await session.close();
    const reply = lines.map((line) => JSON.parse(line)).find((message) => message.id === 2);
    expect(failureOf(reply)).toEqual(await libraryAnswer());
    expect(await runtime.spawn().call('read_text_file', { path: 'a.txt' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('is refused over Streamable HTTP as the library refuses it', async () => {
    const handler = createMcpHttpHandler(runtime);
    const server = createServer((request, response) => void handler.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const opened = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INITIALIZE) });
      const sessionId = opened.headers.get('mcp-session-id')!;
      await opened.text();
      const session = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      await (
        await fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
      ).text();
      const answered = await fetch(url, { method: 'POST', headers: session, body: CALL });
      const text = await answered.text();
      const data = text.startsWith('{') ? text : /^data: (.*)$/mu.exec(text)![1]!;
      expect(failureOf(JSON.parse(data))).toEqual(await libraryAnswer());
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
