import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession, type McpSession } from './support/mcp-session.js';

type JsonSchema = Parameters<AjvJsonSchemaValidator['getValidator']>[0];

const TOOL_NAMES = [
  'append_text_file',
  'apply_patch',
  'copy_file',
  'create_object_from_file',
  'delete_directory',
  'delete_file',
  'edit_text_file',
  'find_files',
  'get_working_directory',
  'move_file',
  'read_directory',
  'read_media_file',
  'read_text_file',
  'search_files',
  'set_working_directory',
  'write_directory',
  'write_object_to_file',
  'write_text_file',
];

function expectSuccess(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  expect(result.content).toHaveLength(1);
  const block = result.content[0]!;
  expect(block.type).toBe('text');
  expect(JSON.parse((block as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

function expectFailure(result: CallToolResult, code: string, effect = 'none') {
  expect(result.isError).toBe(true);
  expect(result).not.toHaveProperty('structuredContent');
  expect(result.content).toHaveLength(1);
  const error = failureOf(result);
  expect(Object.keys(error).sort()).toEqual(['code', 'details', 'effect', 'message']);
  expect(error).toMatchObject({ code, effect });
  return error;
}

describe('libos mcp over stdio (local provider)', () => {
  let workspace: Awaited<ReturnType<typeof temporaryDirectory>>;
  let session: McpSession;

  beforeAll(async () => {
    workspace = await temporaryDirectory();
    await writeFile(join(workspace.path, 'hello.txt'), 'hello from disk\n');
    session = await startMcpSession(['--root', workspace.path]);
  });
  afterAll(async () => {
    await session?.close();
    await workspace?.remove();
  });

  it('publishes every tool with title, annotations and schemas that compile', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.title, tool.name).toEqual(expect.any(String));
      expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.outputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.annotations).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: false,
      });
      validator.getValidator(tool.inputSchema as JsonSchema);
      validator.getValidator(tool.outputSchema as JsonSchema);
    }
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
    expect(readOnly).toEqual(expect.arrayContaining(['read_text_file', 'read_directory', 'get_working_directory']));
    expect(readOnly).not.toContain('write_text_file');
  });

  it('runs every tool; results are structuredContent plus its JSON text (checked by the client against the published schema)', async () => {
    expect(expectSuccess(await session.call('get_working_directory'))).toEqual({ working_directory: '.' });
    expect(expectSuccess(await session.call('write_directory', { path: 'work/sub' }))).toEqual({ path: 'work/sub', created: true });
    expect(expectSuccess(await session.call('set_working_directory', { path: 'work' }))).toEqual({ working_directory: 'work' });
    expect(expectSuccess(await session.call('write_text_file', { path: 'a.txt', content: 'alpha\n' }))).toEqual({
      path: 'work/a.txt',
      bytes_written: 6,
      created: true,
    });
    expect(expectSuccess(await session.call('edit_text_file', { path: 'a.txt', edits: [{ old_text: 'alpha', new_text: 'ALPHA' }] }))).toMatchObject({
      path: 'work/a.txt',
      replacements: 1,
      diff: '--- a/work/a.txt\n+++ b/work/a.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n',
      diff_truncated: false,
    });
    expect(expectSuccess(await session.call('search_files', { path: '.', query: 'ALPHA' }))).toEqual({
      path: 'work',
      matches: [{ path: 'work/a.txt', line: 1, column: 1, text: 'ALPHA' }],
      count: 1,
      truncated: false,
      files_searched: 1,
      partial_files: 0,
      skipped_ignored: 0,
      stopped: null,
    });
    expect(expectSuccess(await session.call('move_file', { from: 'a.txt', to: 'b.txt' }))).toEqual({
      from: 'work/a.txt',
      to: 'work/b.txt',
      replaced: false,
    });
    expect(expectSuccess(await session.call('move_file', { from: 'b.txt', to: 'a.txt' }))).toEqual({
      from: 'work/b.txt',
      to: 'work/a.txt',
      replaced: false,
    });
    const read = expectSuccess(await session.call('read_text_file', { path: '../hello.txt' }));
    expect(read).toMatchObject({ path: 'hello.txt', content: 'hello from disk\n', encoding: 'utf-8', truncated: false });
    const listing = expectSuccess(await session.call('read_directory', { path: '' }));
    expect(listing).toMatchObject({ path: 'work', count: 2, truncated: false });
    expect((listing['entries'] as { name: string; kind: string }[]).map((entry) => [entry.name, entry.kind])).toEqual([
      ['a.txt', 'file'],
      ['sub', 'directory'],
    ]);
    const created = expectSuccess(await session.call('create_object_from_file', { name: 'alpha', path: 'a.txt' }));
    expect(created).toMatchObject({ name: 'alpha', type: 'artifact', source_path: 'work/a.txt', truncated: false });
    expect(created['namespace']).toMatch(/^process:pid_[0-9a-f]{16}$/u);
    expect(expectSuccess(await session.call('write_object_to_file', { name: 'alpha', path: 'sub/copy.txt' }))).toMatchObject({
      name: 'alpha',
      path: 'work/sub/copy.txt',
      created: true,
    });
    expect(await readFile(join(workspace.path, 'work/sub/copy.txt'), 'utf8')).toBe('ALPHA\n');
    expect(expectSuccess(await session.call('delete_file', { path: 'a.txt' }))).toEqual({
      path: 'work/a.txt',
      kind: 'file',
      deleted: true,
      recursive: false,
    });
    expect(expectSuccess(await session.call('delete_directory', { path: 'sub', recursive: true }))).toEqual({
      path: 'work/sub',
      kind: 'directory',
      deleted: true,
      recursive: true,
    });
  });

  it('returns failures as isError with one {"error": …} text block and no structuredContent', async () => {
    expectFailure(await session.call('read_text_file', { path: 'missing.txt' }), 'not_found');
    expectFailure(await session.call('read_text_file', { path: 'hello.txt', bogus: 1 }), 'invalid_arguments');
    expectFailure(await session.call('read_text_file', { path: 'hello.txt', max_bytes: '5' }), 'invalid_arguments');
    expectFailure(await session.call('no_such_tool', {}), 'unknown_tool');
    expectFailure(await session.call('write_text_file', { path: '.git/config', content: 'x' }), 'protected_path');
    expectFailure(await session.call('read_directory', { path: '../..' }), 'outside_workspace');
    expectFailure(await session.call('delete_directory', { path: '..' }), 'root_refused');
    const error = expectFailure(await session.call('read_text_file', { path: '/etc/passwd' }), 'invalid_path');
    expect(error.message).not.toContain(workspace.path);
  });

  it('logs nothing but protocol messages on stdout (the client saw no parse errors)', () => {
    expect(session.stderr()).toContain('libos mcp: serving');
  });
});

describe('two sessions at once', () => {
  it('keep separate working directories and Object namespaces', async () => {
    const workspace = await temporaryDirectory();
    await mkdir(join(workspace.path, 'left'));
    await mkdir(join(workspace.path, 'right'));
    await writeFile(join(workspace.path, 'left/note.txt'), 'left note');
    const [first, second] = await Promise.all([startMcpSession(['--root', workspace.path]), startMcpSession(['--root', workspace.path])]);
    try {
      await Promise.all([first.call('set_working_directory', { path: 'left' }), second.call('set_working_directory', { path: 'right' })]);
      expect(expectSuccess(await first.call('get_working_directory'))).toEqual({ working_directory: 'left' });
      expect(expectSuccess(await second.call('get_working_directory'))).toEqual({ working_directory: 'right' });

      const created = expectSuccess(await first.call('create_object_from_file', { name: 'note', path: 'note.txt' }));
      const otherNamespace = String(created['namespace']);
      const mine = expectSuccess(await second.call('create_object_from_file', { name: 'note', path: '../left/note.txt' }));
      expect(mine['namespace']).not.toBe(otherNamespace);
      expectFailure(
        await second.call('write_object_to_file', { name: 'note', namespace: otherNamespace, path: 'stolen.txt' }),
        'namespace_not_found',
      );
    } finally {
      await Promise.all([first.close(), second.close()]);
      await workspace.remove();
    }
  });
});
