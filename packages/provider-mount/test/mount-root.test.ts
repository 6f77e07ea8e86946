import { describe, expect, it } from 'vitest';
import { mountedWorkspace } from './workspace.js';

describe('the root of a mount provider', () => {
  it('lists the mount names as directories, in code-point order, and nothing else', async () => {
    const { ok, web } = await mountedWorkspace();
    await web.fixtures.writeFile('src/app.ts', 'export {};\n');
    const listing = await ok('read_directory', { path: '.' });
    expect((listing.entries as Array<{ name: string; path: string; kind: string }>).map(({ name, path, kind }) => ({ name, path, kind }))).toEqual([
      { name: 'api', path: 'api', kind: 'directory' },
      { name: 'web', path: 'web', kind: 'directory' },
    ]);
    expect((await ok('read_directory', { path: '.', limit: 1 })).truncated).toBe(true);
    expect(await ok('read_text_file', { path: 'web/src/app.ts' })).toMatchObject({ path: 'web/src/app.ts', content: 'export {};\n' });
    expect((await ok('read_directory', { path: 'web/src' })).entries).toMatchObject([{ name: 'app.ts', path: 'web/src/app.ts', kind: 'file' }]);
  });

  it('refuses to create anything beside the mounts, naming the top-level name, and changes nothing', async () => {
    const { fails, fingerprint } = await mountedWorkspace();
    const before = fingerprint();
    for (const [tool, args] of [
      ['write_text_file', { path: 'notes.txt', content: 'x' }],
      ['write_text_file', { path: 'new/deep/notes.txt', content: 'x' }],
      ['write_directory', { path: 'new' }],
      ['append_text_file', { path: 'log.txt', content: 'x', create: true }],
    ] as const) {
      const error = await fails(tool, args);
      expect(error).toMatchObject({ code: 'protected_path', effect: 'none' });
      expect(error.message).toContain('holds only its mounts');
    }
    expect(await fails('read_text_file', { path: 'nope/a.txt' })).toMatchObject({ code: 'not_found', details: { missing: 'nope' } });
    expect(await fails('read_directory', { path: 'nope' })).toMatchObject({ code: 'not_found' });
    expect(fingerprint()).toBe(before);
  });

  it('never deletes, renames or overwrites the root or a mount point', async () => {
    const { ok, fails, fingerprint, api } = await mountedWorkspace();
    await api.fixtures.writeFile('kept.txt', 'kept');
    const before = fingerprint();
    expect(await fails('delete_directory', { path: 'api', recursive: true })).toMatchObject({
      code: 'root_refused',
      effect: 'none',
      details: { path: 'api' },
    });
    expect(await fails('delete_directory', { path: 'web' })).toMatchObject({ code: 'root_refused' });
    expect(await fails('delete_directory', { path: '.', recursive: true })).toMatchObject({ code: 'root_refused' });
    expect(await fails('delete_file', { path: 'api' })).toMatchObject({ code: 'not_a_file' });
    expect(await fails('move_file', { from: 'api', to: 'web/api' })).toMatchObject({ code: 'not_a_file' });
    expect(await fails('move_file', { from: 'api/kept.txt', to: 'web', overwrite: true })).toMatchObject({
      code: 'not_a_file',
      details: { path: 'web' },
    });
    expect(await fails('copy_file', { from: 'api/kept.txt', to: 'web', overwrite: true })).toMatchObject({ code: 'not_a_file' });
    expect(await fails('write_text_file', { path: 'web', content: 'x' })).toMatchObject({ code: 'not_a_file' });
    expect(await ok('write_directory', { path: 'web' })).toEqual({ path: 'web', created: false });
    expect(fingerprint()).toBe(before);
  });

  it('judges the root by the mounted rules: .git inside a mount is protected and its errors name workspace paths', async () => {
    const { fails, web } = await mountedWorkspace();
    await web.fixtures.writeFile('repo/.git/config', '[core]\n');
    await web.fixtures.writeFile('repo/a.txt', 'a');
    const error = await fails('delete_directory', { path: 'web/repo', recursive: true });
    expect(error).toMatchObject({ code: 'protected_path', effect: 'none', details: { path: 'web/repo', protected: 'web/repo/.git' } });
    expect(error.message).toContain("'web/repo/.git'");
    expect(await web.fixtures.readFile('repo/a.txt')).not.toBeNull();
  });
});
