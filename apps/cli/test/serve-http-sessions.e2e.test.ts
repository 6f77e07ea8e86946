import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf } from './support/mcp-session.js';
import { connectHttp, post, startServe, type ServeProcess } from './support/http-serve.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let root: string;
let server: ServeProcess;

function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent!;
}

beforeAll(async () => {
  scratch = await temporaryDirectory('libos-serve-');
  root = join(scratch.path, 'root');
  await mkdir(join(root, 'a'), { recursive: true });
  await writeFile(join(root, 'a', 'note.txt'), 'hello from a\n');
  const config = join(scratch.path, 'config.json');
  await writeFile(config, JSON.stringify({ namespaces: [{ name: 'shared', rights: ['read', 'write'] }] }));
  // No token (--single-user, see support/http-serve.ts): loopback only, which the start-up line says.
  // The default idle time: a one-second one would end a session that a loaded machine keeps waiting.
  server = await startServe(['--root', root, '--config', config]);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

describe('libos serve --http: the tools over Streamable HTTP', () => {
  it('says it serves without a token, on the word of --single-user', () => {
    expect(server.stderr()).toContain('without a token (--single-user: no other local user can connect to this machine)');
  });

  it('lists every tool with its schemas and runs each of them', async () => {
    const session = await connectHttp(server.url);
    const { tools } = await session.client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'read_text_file',
      'write_text_file',
      'read_directory',
      'write_directory',
      'delete_file',
      'delete_directory',
      'get_working_directory',
      'set_working_directory',
      'create_object_from_file',
      'write_object_to_file',
    ]) {
      expect(names).toContain(name);
    }
    expect(tools.every((tool) => tool.outputSchema !== undefined)).toBe(true);
    expect(structured(await session.call('write_directory', { path: 'made' }))).toMatchObject({ path: 'made' });
    expect(structured(await session.call('write_text_file', { path: 'made/x.txt', content: 'over http' }))).toMatchObject({
      bytes_written: 9,
      created: true,
    });
    expect(structured(await session.call('read_text_file', { path: 'made/x.txt' }))).toMatchObject({ content: 'over http' });
    expect(structured(await session.call('read_directory', { path: 'made' }))).toMatchObject({
      entries: [expect.objectContaining({ path: 'made/x.txt' })],
    });
    expect(structured(await session.call('create_object_from_file', { path: 'made/x.txt', namespace: 'shared', name: 'x' }))).toMatchObject({
      name: 'x',
    });
    expect(structured(await session.call('write_object_to_file', { namespace: 'shared', name: 'x', path: 'made/y.txt' }))).toMatchObject({
      path: 'made/y.txt',
    });
    expect(await readFile(join(root, 'made', 'y.txt'), 'utf8')).toBe('over http');
    expect(structured(await session.call('delete_file', { path: 'made/y.txt' }))).toMatchObject({ path: 'made/y.txt' });
    expect(structured(await session.call('delete_directory', { path: 'made', recursive: true }))).toMatchObject({ path: 'made' });
    await session.transport.terminateSession();
    await session.client.close();
  });

  it('returns a tool failure as an isError result with the contract error, and keeps the session', async () => {
    const session = await connectHttp(server.url);
    const missing = await session.call('read_text_file', { path: 'no/such.txt' });
    expect(missing.isError).toBe(true);
    expect(failureOf(missing)).toMatchObject({ code: 'not_found', effect: 'none' });
    const escape = await session.call('read_text_file', { path: '../etc/passwd' });
    expect(failureOf(escape)).toMatchObject({ code: 'outside_workspace', effect: 'none' });
    expect(structured(await session.call('get_working_directory'))).toMatchObject({ working_directory: '.' });
    await session.transport.terminateSession();
    await session.client.close();
  });

  it('gives each session its own process: a cd in one is not seen by the other', async () => {
    const one = await connectHttp(server.url);
    const two = await connectHttp(server.url);
    expect(one.transport.sessionId).not.toBe(two.transport.sessionId);
    expect(structured(await one.call('set_working_directory', { path: 'a' }))).toMatchObject({ working_directory: 'a' });
    expect(structured(await one.call('read_text_file', { path: 'note.txt' }))).toMatchObject({ content: 'hello from a\n' });
    expect(structured(await two.call('get_working_directory'))).toMatchObject({ working_directory: '.' });
    expect(failureOf(await two.call('read_text_file', { path: 'note.txt' })).code).toBe('not_found');
    for (const session of [one, two]) {
      await session.transport.terminateSession();
      await session.client.close();
    }
  });

  it('ends the session on DELETE: its id is unknown afterwards', async () => {
    const session = await connectHttp(server.url);
    const id = session.transport.sessionId!;
    await session.transport.terminateSession();
    await session.client.close();
    const after = await post(server.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(after.status).toBe(404);
  });

  it('ends a session idle past --session-idle-seconds', async () => {
    const idle = await startServe(['--root', root, '--session-idle-seconds', '1']);
    try {
      const session = await connectHttp(idle.url);
      const id = session.transport.sessionId!;
      // Polled, not timed: the sweep may run late on a loaded machine. Any request would count as
      // activity, so the server's log says when the session ended; then the id is refused.
      for (let attempt = 0; attempt < 400 && !idle.stderr().includes(`session ${id} idle`); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const status = (await post(idle.url, { jsonrpc: '2.0', id: 9, method: 'ping' }, { 'mcp-session-id': id })).status;
      expect(status).toBe(404);
      await session.client.close();
    } finally {
      await idle.stop();
    }
  });
});
