import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { runLibos, temporaryDirectory } from './support/libos-binary.js';
import { startMcpSession } from './support/mcp-session.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresMissing: string;
  }
}

const postgresUrl = inject('postgresUrl');
const missing = inject('postgresMissing');

async function directory(): Promise<string> {
  const made = await temporaryDirectory();
  onTestFinished(() => made.remove());
  return made.path;
}

const workspaceName = () => `cli-${randomBytes(6).toString('hex')}`;

(missing === '' ? describe : describe.skip)(`libos --provider postgres${missing === '' ? '' : ` (skipped: ${missing})`}`, () => {
  it('seeds a new workspace once, serves it to call and mcp, and exports it into an empty directory', async () => {
    const seed = await directory();
    await mkdir(join(seed, 'docs'));
    await writeFile(join(seed, 'docs', 'readme.md'), 'seeded\n');
    await writeFile(join(seed, 'top.txt'), 'top');
    const workspace = workspaceName();
    const flags = ['--provider', 'postgres', '--database', postgresUrl, '--workspace', workspace];
    const first = await runLibos(['call', 'read_text_file', '{"path": "docs/readme.md"}', ...flags, '--seed', seed]);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, result: { content: 'seeded\n' } });
    // The workspace exists now: a second seed is not copied in, and earlier changes stay.
    const other = await directory();
    await writeFile(join(other, 'other.txt'), 'other');
    const written = await runLibos(['call', 'write_text_file', '{"path": "notes/n.txt", "content": "from call"}', ...flags, '--seed', other]);
    expect(written.status).toBe(0);
    const missingFile = await runLibos(['call', 'read_text_file', '{"path": "other.txt"}', ...flags]);
    expect(missingFile.status).toBe(1);
    expect(JSON.parse(missingFile.stdout)).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const session = await startMcpSession(flags);
    onTestFinished(() => session.close());
    expect(session.stderr()).toContain(`the PostgreSQL workspace "${workspace}"`);
    expect((await session.call('read_text_file', { path: 'notes/n.txt' })).structuredContent).toMatchObject({ content: 'from call' });
    expect((await session.call('write_text_file', { path: 'from-mcp.txt', content: 'mcp' })).isError).toBeFalsy();
    await session.close();

    const target = join(await directory(), 'copy');
    const exported = await runLibos(['export', ...flags, target]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({ files: 4, directories: 2, bytes: 7 + 3 + 9 + 3 });
    expect((await readdir(target)).sort()).toEqual(['docs', 'from-mcp.txt', 'notes', 'top.txt']);
    expect(await readFile(join(target, 'docs', 'readme.md'), 'utf8')).toBe('seeded\n');
    expect(await readFile(join(target, 'notes', 'n.txt'), 'utf8')).toBe('from call');

    // Never into a directory that holds anything.
    const again = await runLibos(['export', ...flags, target]);
    expect(again.status).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain('is not empty');
    expect(await readFile(join(target, 'top.txt'), 'utf8')).toBe('top');
  });

  it("takes the workspace's quota from the config's bounds.workspace_max_bytes: a write past it is quota_exceeded and lands nothing", async () => {
    const config = join(await directory(), 'libos.json');
    await writeFile(config, JSON.stringify({ bounds: { workspace_max_bytes: 10 } }));
    const flags = ['--provider', 'postgres', '--database', postgresUrl, '--workspace', workspaceName(), '--config', config];
    const fits = await runLibos(['call', 'write_text_file', '{"path": "a.txt", "content": "0123456789"}', ...flags]);
    expect(fits.status, fits.stderr).toBe(0);
    const past = await runLibos(['call', 'write_text_file', '{"path": "b.txt", "content": "x"}', ...flags]);
    expect(past.status).toBe(1);
    expect(JSON.parse(past.stdout)).toMatchObject({ ok: false, error: { code: 'quota_exceeded', effect: 'none' } });
    const listed = await runLibos(['call', 'read_directory', '{"path": "."}', ...flags]);
    expect(JSON.parse(listed.stdout).result.entries.map((entry: { name: string }) => entry.name)).toEqual(['a.txt']);
  });

  it('refuses missing flags, flags of other backends and an unreachable database with exit 2 and one line, never printing a password', async () => {
    const workspace = workspaceName();
    const noWorkspace = await runLibos(['call', 'get_working_directory', '--provider', 'postgres', '--database', postgresUrl]);
    expect(noWorkspace.status).toBe(2);
    expect(noWorkspace.stderr).toContain('needs --workspace NAME');
    const withRoot = await runLibos([
      'call',
      'get_working_directory',
      '--provider',
      'postgres',
      '--database',
      postgresUrl,
      '--workspace',
      workspace,
      '--root',
      '.',
    ]);
    expect(withRoot.status).toBe(2);
    const unreachable = await runLibos([
      'call',
      'get_working_directory',
      '--provider',
      'postgres',
      '--database',
      'postgres://someone:s3cret-pass@127.0.0.1:1/db',
      '--workspace',
      workspace,
    ]);
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toContain('--database');
    expect(unreachable.stderr).not.toContain('s3cret-pass');
    const noDirectory = await runLibos(['export', '--provider', 'postgres', '--database', postgresUrl, '--workspace', workspace]);
    expect(noDirectory.status).toBe(2);
  });

  it('refuses to export a workspace that does not exist, creating none: a mistyped name is not an empty workspace', async () => {
    const real = workspaceName();
    const made = await runLibos([
      'call',
      'write_text_file',
      JSON.stringify({ path: 'a.txt', content: 'a\n' }),
      '--provider',
      'postgres',
      '--database',
      postgresUrl,
      '--workspace',
      real,
    ]);
    expect(made.status, made.stderr).toBe(0);
    const typo = `${real}x`;
    const target = join(await directory(), 'out');
    const exported = await runLibos(['export', '--provider', 'postgres', '--database', postgresUrl, '--workspace', typo, target]);
    expect(exported.status).toBe(2);
    expect(exported.stdout).toBe('');
    expect(exported.stderr.trim().split('\n')).toHaveLength(1);
    expect(exported.stderr).toContain(`--workspace "${typo}": no such workspace`);
    expect(await readdir(target).catch(() => 'absent')).toBe('absent');
    // Still absent: exporting it again says the same (the refusal created nothing).
    const again = await runLibos(['export', '--provider', 'postgres', '--database', postgresUrl, '--workspace', typo, target]);
    expect(again.stderr).toContain('no such workspace');
    const good = await runLibos(['export', '--provider', 'postgres', '--database', postgresUrl, '--workspace', real, target]);
    expect(good.status, good.stderr).toBe(0);
    expect(await readFile(join(target, 'a.txt'), 'utf8')).toBe('a\n');
  });
});
