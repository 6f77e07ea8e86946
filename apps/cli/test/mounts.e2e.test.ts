import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectHttp, startServe } from './support/http-serve.js';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { failureOf, startMcpSession } from './support/mcp-session.js';

let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let web: string;
let api: string;
beforeEach(async () => {
  base = await temporaryDirectory('libos-mounts-cli-');
  web = join(base.path, 'web-tree');
  api = join(base.path, 'api-tree');
  await mkdir(join(web, 'src'), { recursive: true });
  await mkdir(api);
  await writeFile(join(web, 'src', 'app.ts'), 'export const app = 1;\n');
  await writeFile(join(api, 'server.ts'), 'export const server = 2;\n');
});
afterEach(async () => {
  await base?.remove();
});

const mounts = () => ['--mount', `web=${web}`, '--mount', `api=${api}`, '--read-only', 'api'];
const call = async (tool: string, args: unknown, extra: readonly string[] = []) => {
  const run = await runLibos(['call', tool, JSON.stringify(args), ...mounts(), ...extra]);
  return { status: run.status, output: JSON.parse(run.stdout) as { ok: boolean; result?: Record<string, unknown>; error?: Record<string, unknown> } };
};
const tree = async (directory: string) => (await readdir(directory, { recursive: true })).sort();

describe('libos --mount NAME=DIR and --read-only NAME', () => {
  it('serves each directory at its name; the read-only one refuses writes as a denial that says so', async () => {
    const listing = await call('read_directory', { path: '.' });
    expect((listing.output.result!.entries as Array<{ name: string; kind: string }>).map((entry) => [entry.name, entry.kind])).toEqual([
      ['api', 'directory'],
      ['web', 'directory'],
    ]);
    expect((await call('read_text_file', { path: 'web/src/app.ts' })).output.result).toMatchObject({ content: 'export const app = 1;\n' });
    const denied = await call('write_text_file', { path: 'api/server.ts', content: 'hacked' });
    expect(denied.status).toBe(1);
    expect(denied.output.error).toMatchObject({ code: 'denied', effect: 'none' });
    expect(denied.output.error!.message).toContain('the mount "api" is read-only');
    expect((await call('copy_file', { from: 'api/server.ts', to: 'web/server.ts' })).status).toBe(0);
    expect(await readFile(join(web, 'server.ts'), 'utf8')).toBe('export const server = 2;\n');
    const moved = await call('move_file', { from: 'web/server.ts', to: 'api/moved.ts' });
    expect(moved.output.error).toMatchObject({ code: 'denied' });
    expect(await tree(api)).toEqual(['server.ts']);
    // Without --read-only, a move between mounts is refused by the mount provider itself.
    const free = await runLibos([
      'call',
      'move_file',
      '{"from":"web/server.ts","to":"api/moved.ts"}',
      '--mount',
      `web=${web}`,
      '--mount',
      `api=${api}`,
    ]);
    expect(JSON.parse(free.stdout).error).toMatchObject({ code: 'invalid_arguments', details: { reason: 'cross_mount_move' } });
    expect(await readFile(join(web, 'server.ts'), 'utf8')).toBe('export const server = 2;\n');
  });

  it('refuses bad combinations and overlapping or bad mounts before serving (exit 2, one line)', async () => {
    await mkdir(join(web, 'inner'));
    for (const [args, words] of [
      [['--mount', `web=${web}`, '--root', web], '--mount replaces --root'],
      [['--read-only', 'api'], 'give --mount NAME=DIR too'],
      [['--mount', `web=${web}`, '--read-only', 'api'], 'names no --mount'],
      [['--mount', `web=${web}`, '--mount', `inner=${join(web, 'inner')}`], 'must not overlap'],
      [['--mount', `web=${web}`, '--mount', `again=${web}`], 'must not overlap'],
      [['--mount', `web=${web}`, '--mount', `web=${api}`], 'given twice'],
      [['--mount', `a/b=${web}`], 'would look like a path'],
      [['--mount', `..=${web}`], 'is . or ..'],
      [['--mount', web], 'expects NAME=DIR'],
      [['--mount', `web=${join(base.path, 'missing')}`], 'no such directory'],
      [['--mount', `web=${web}`, '--provider', 'memfs'], 'serves a directory'],
    ] as const) {
      const run = await runLibos(['call', 'read_directory', '{"path":"."}', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(words);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('--overlay over mounts keeps both trees untouched until a person applies', async () => {
    const state = join(base.path, 'ws.overlay');
    const overlay = ['--overlay', state];
    const open = ['--mount', `web=${web}`, '--mount', `api=${api}`, ...overlay];
    const agent = (tool: string, args: unknown) => runLibos(['call', tool, JSON.stringify(args), ...open]);
    expect((await agent('write_text_file', { path: 'web/src/app.ts', content: 'changed\n' })).status).toBe(0);
    expect((await agent('write_text_file', { path: 'api/new.ts', content: 'new\n' })).status).toBe(0);
    expect(JSON.parse((await agent('write_text_file', { path: 'stray.txt', content: 'x' })).stdout).error).toMatchObject({ code: 'protected_path' });
    // A mount point is never deleted, not even in the overlay's view.
    expect(JSON.parse((await agent('delete_directory', { path: 'web', recursive: true })).stdout).error).toMatchObject({ code: 'root_refused' });
    expect(await readFile(join(web, 'src', 'app.ts'), 'utf8')).toBe('export const app = 1;\n');
    expect(await tree(api)).toEqual(['server.ts']);
    const changes = JSON.parse((await runLibos(['changes', ...open])).stdout) as { changes: Array<{ path: string; change: string }> };
    expect(changes.changes.map((change) => [change.path, change.change])).toEqual([
      ['api/new.ts', 'added'],
      ['web/src/app.ts', 'modified'],
    ]);
    const applied = await runLibos(['apply', ...open]);
    expect(applied.status).toBe(0);
    expect(await readFile(join(web, 'src', 'app.ts'), 'utf8')).toBe('changed\n');
    expect(await readFile(join(api, 'new.ts'), 'utf8')).toBe('new\n');
  });

  it('--audit records calls over mounts with workspace paths, a read-only refusal as a denial, and verifies', async () => {
    const file = join(base.path, 'audit.log');
    expect((await call('write_text_file', { path: 'web/notes.md', content: 'n' }, ['--audit', file])).status).toBe(0);
    expect((await call('delete_file', { path: 'api/server.ts' }, ['--audit', file])).status).toBe(1);
    const records = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as { tool: string; paths: string[]; decision?: { outcome: string; rule: { reason?: string } | null }; result: unknown },
      );
    const calls = records.filter((record) => record.tool === 'write_text_file' || record.tool === 'delete_file');
    expect(calls.map((record) => [record.tool, record.paths, record.decision?.outcome, record.result])).toEqual([
      ['write_text_file', ['web/notes.md'], 'allowed', { ok: true }],
      ['delete_file', ['api/server.ts'], 'denied', { ok: false, code: 'denied', effect: 'none' }],
    ]);
    expect(calls[1]!.decision!.rule).toMatchObject({ path: 'api', mode: 'deny', reason: 'the mount "api" is read-only' });
    expect(JSON.parse((await runLibos(['audit', 'verify', file])).stdout)).toMatchObject({ ok: true });
    // The log may not lie inside any mount.
    const inside = await runLibos(['call', 'read_directory', '{"path":"."}', ...mounts(), '--audit', join(api, 'audit.log')]);
    expect(inside.status).toBe(2);
  });

  it('libos mcp, serve and shell take the same flags', async () => {
    const session = await startMcpSession(mounts());
    try {
      expect(session.stderr()).toContain('mounts web=');
      const refused = await session.call('write_text_file', { path: 'api/x.ts', content: 'x' });
      expect(refused.isError).toBe(true);
      expect(failureOf(refused).message).toContain('read-only');
      expect((await session.call('write_text_file', { path: 'web/x.ts', content: 'x' })).isError).toBeFalsy();
    } finally {
      await session.close();
    }
    expect(await readFile(join(web, 'x.ts'), 'utf8')).toBe('x');

    const server = await startServe(mounts());
    try {
      const client = await connectHttp(server.url);
      const listed = await client.call('read_directory', { path: '.' });
      expect((listed.structuredContent as { entries: Array<{ name: string }> }).entries.map((entry) => entry.name)).toEqual(['api', 'web']);
      expect(failureOf(await client.call('delete_file', { path: 'api/server.ts' })).code).toBe('denied');
      await client.client.close();
    } finally {
      await server.stop();
    }

    const shell = await runLibos(['shell', ...mounts()], { input: ['ls', 'cat web/src/app.ts', 'rm api/server.ts'].join('\n') });
    expect(shell.stdout).toMatch(/directory\s+-\s+\S+ \S+\s+api\//u);
    expect(shell.stdout).toContain('export const app = 1;');
    expect(shell.stdout).toContain('[denied]');
    expect(await tree(api)).toEqual(['server.ts']);
  });
});
