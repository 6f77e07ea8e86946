import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';
import { HANDSHAKE, startRawMcp } from './support/raw-mcp.js';

let scratch: Awaited<ReturnType<typeof temporaryDirectory>>;
let launch: string;
let project: string;
beforeAll(async () => {
  scratch = await temporaryDirectory();
  // The directory a desktop client starts servers from (often `/`): it must never be served.
  launch = join(scratch.path, 'launch');
  project = join(scratch.path, 'project');
  await mkdir(launch);
  await mkdir(project);
  await writeFile(join(launch, 'hostname'), 'the launch directory');
  await writeFile(join(project, 'notes.txt'), 'the project');
});
afterAll(async () => {
  await scratch?.remove();
});

describe('libos mcp without --root', () => {
  it("serves the client's one file:// root, not its launch directory, and says so on stderr", async () => {
    const session = await startMcpSession([], 'none', { cwd: launch, roots: [pathToFileURL(project).href] });
    try {
      const read = await session.call('read_text_file', { path: 'notes.txt' });
      expect(read.structuredContent).toMatchObject({ content: 'the project' });
      expect(failureOf(await session.call('read_text_file', { path: 'hostname' }))).toMatchObject({ code: 'not_found' });
      expect(session.stderr()).toContain(`serving ${project} (local provider, the client's MCP root`);
    } finally {
      await session.close();
    }
  });

  it.each([
    ['offers no roots capability', undefined],
    ['offers no root', []],
    ['lists a root that is no file:// URI', ['https://example.com/']],
    ['offers two file:// roots', ['project', 'launch']],
  ])('refuses to serve when the client %s, answering the call and exiting 2', async (_label, named) => {
    const directories: Record<string, string> = { project, launch };
    const roots = named?.map((uri) => (uri in directories ? pathToFileURL(directories[uri]!).href : uri));
    const server = startRawMcp([], { cwd: launch });
    const [initialize, initialized] = HANDSHAKE as unknown as [Record<string, unknown>, Record<string, unknown>];
    const capabilities = roots === undefined ? {} : { roots: {} };
    server.send({ ...initialize, params: { ...(initialize.params as object), capabilities } });
    server.send(initialized);
    server.send({ jsonrpc: '2.0', id: 'read', method: 'tools/call', params: { name: 'read_text_file', arguments: { path: 'hostname' } } });
    // The server asks for the roots (id 0 is its first request) and gets this answer.
    if (roots !== undefined) server.send({ jsonrpc: '2.0', id: 0, result: { roots: roots.map((uri) => ({ uri })) } });
    const status = await server.exited();
    const { messages, stderr } = await server.finish();
    expect(status).toBe(2);
    const answer = messages.find((message) => message.id === 'read') as { result: { isError: boolean; content: { text: string }[] } };
    expect(answer.result.isError).toBe(true);
    const failure = (JSON.parse(answer.result.content[0]!.text) as { error: { code: string; message: string } }).error;
    expect(failure.message).toMatch(/pass --root DIR/u);
    expect(JSON.stringify(messages)).not.toContain('the launch directory');
    expect(stderr).toMatch(/serves no workspace: .+; pass --root DIR/u);
  });
});

describe('libos mcp start-up line', () => {
  it('names the provider and the directory served', async () => {
    const local = await startMcpSession(['--root', project]);
    const memfs = await startMcpSession(['--provider', 'memfs', '--seed', project]);
    try {
      expect(local.stderr()).toMatch(
        new RegExp(`serving ${project.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')} \\(local provider, \\d+ tools\\) on stdio`, 'u'),
      );
      expect(memfs.stderr()).toContain(`serving an in-memory copy of ${project} (memfs provider`);
    } finally {
      await local.close();
      await memfs.close();
    }
  });
});
