import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf } from './support/mcp-session.js';
import { connectHttp, startServe, type ServeProcess } from './support/http-serve.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let config: string;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
  root = join(scratch.path, 'root');
  await mkdir(join(root, 'gated'), { recursive: true });
  config = join(scratch.path, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      grants: [
        { path: '.', tree: true, rights: ['read', 'write', 'delete'] },
        { path: 'gated', tree: true, rights: ['write'], mode: 'ask' },
      ],
    }),
  );
});
afterAll(async () => {
  await scratch?.remove();
});

/** A promise and the function that settles it. */
function gate<T>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

describe('libos serve --http: approvals over the session stream', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--root', root, '--config', config]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('asks the session that made the call, and writes only after the user accepts', async () => {
    const asker = await connectHttp(server.url, { answer: 'accept' });
    const bystander = await connectHttp(server.url, { answer: 'accept' });
    const result = await asker.call('write_text_file', { path: 'gated/yes.txt', content: 'approved' });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    expect(asker.elicitations).toHaveLength(1);
    expect(asker.elicitations[0]!.message).toContain('write_text_file to write "gated/yes.txt"');
    expect(bystander.elicitations).toHaveLength(0);
    expect(await readFile(join(root, 'gated/yes.txt'), 'utf8')).toBe('approved');
    for (const session of [asker, bystander]) await session.client.close();
  });

  it('refuses with approval_rejected when the user declines, writing nothing', async () => {
    const session = await connectHttp(server.url, { answer: 'decline' });
    const result = await session.call('write_text_file', { path: 'gated/no.txt', content: 'refused' });
    expect(failureOf(result)).toMatchObject({ code: 'approval_rejected', effect: 'none' });
    expect(await exists(join(root, 'gated/no.txt'))).toBe(false);
    await session.client.close();
  });

  it('stops waiting for the approval when the client cancels the call, and a late accept writes nothing', async () => {
    const asked = gate<void>();
    const serverGaveUp = gate<void>();
    const late = gate<ElicitResult>();
    let questions = 0;
    const session = await connectHttp(server.url, {
      answer: async (_request, signal) => {
        questions += 1;
        // The SDK client ignores a cancellation of request id 0 (it tests the id for truthiness),
        // so the server's first question is answered and the second one is the one cancelled.
        if (questions === 1) return { action: 'accept', content: {} };
        signal.addEventListener('abort', () => serverGaveUp.open(), { once: true });
        asked.open();
        return late.opened;
      },
    });
    expect((await session.call('write_text_file', { path: 'gated/first.txt', content: 'first' })).isError ?? false).toBe(false);
    const controller = new AbortController();
    const call = session.call('write_text_file', { path: 'gated/cancelled.txt', content: 'never' }, controller.signal);
    await asked.opened;
    controller.abort('the user pressed stop');
    await expect(call).rejects.toThrow();
    // The server's notifications/cancelled for its own question proves the call stopped waiting.
    await serverGaveUp.opened;
    late.open({ action: 'accept', content: {} });
    // The same session still serves calls: the cancelled one freed its slot.
    const after = await session.call('read_directory', { path: 'gated' });
    expect(after.isError ?? false).toBe(false);
    expect(await exists(join(root, 'gated/cancelled.txt'))).toBe(false);
    await session.client.close();
  });
});

/** Reads the JSON-RPC messages of a `text/event-stream` response one at a time. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return async function next(): Promise<Record<string, unknown>> {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        if (data !== '') return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended; left: ${buffered}`);
      buffered += decoder.decode(value, { stream: true });
    }
  };
}

describe('libos serve --http: an approval for a client that opens no GET stream', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(['--root', root, '--config', config]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('asks on the call’s own response stream, and the accepted write lands', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const opened = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '0' } },
      }),
    });
    await opened.text();
    const session = { ...headers, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18' };
    await (
      await fetch(server.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
    ).text();

    const call = await fetch(server.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'write_text_file', arguments: { path: 'gated/raw.txt', content: 'asked on the stream' } },
      }),
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const next = eventReader(call);
    // Sent on the GET stream instead, the question would never arrive on this stream.
    const question = await Promise.race([
      next(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no question on the call’s stream within 20 s')), 20_000)),
    ]);
    expect(question).toMatchObject({ method: 'elicitation/create' });
    expect(JSON.stringify(question.params)).toContain('gated/raw.txt');
    const answered = await fetch(server.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: {} } }),
    });
    expect(answered.status).toBe(202);
    const reply = await next();
    expect(reply).toMatchObject({ id: 7, result: { structuredContent: { path: 'gated/raw.txt' } } });
    expect((reply.result as { isError?: boolean }).isError ?? false).toBe(false);
    expect(await readFile(join(root, 'gated/raw.txt'), 'utf8')).toBe('asked on the stream');
    await fetch(server.url, { method: 'DELETE', headers: session });
  }, 60_000);
});

describe('libos serve --http: SIGTERM', () => {
  it('answers a call already taken (its approval included) before it exits 0', async () => {
    const server = await startServe(['--root', root, '--config', config]);
    const asked = gate<void>();
    const release = gate<ElicitResult>();
    const session = await connectHttp(server.url, {
      answer: async () => {
        asked.open();
        return release.opened;
      },
    });
    const call = session.call('write_text_file', { path: 'gated/drained.txt', content: 'landed during drain' });
    await asked.opened;
    const exit = server.stop('SIGTERM');
    // The server is draining now; the user's answer still reaches the waiting call.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release.open({ action: 'accept', content: {} });
    const result = await call;
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    expect(await exit).toBe(0);
    expect(await readFile(join(root, 'gated/drained.txt'), 'utf8')).toBe('landed during drain');
    await session.client.close().catch(() => {});
  });
});
