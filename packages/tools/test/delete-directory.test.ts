import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';

describe('delete_directory', () => {
  it('deletes an empty directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/empty');
    expect(await bed.ok('delete_directory', { path: 'a/empty' })).toEqual({ path: 'a/empty', kind: 'directory', deleted: true, recursive: false });
    expect(await bed.fixtures.kindOf('a/empty')).toBe('missing');
    expect(await bed.fixtures.kindOf('a')).toBe('directory');
  });

  it('refuses a non-empty directory without recursive and changes nothing', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('d/x.txt', 'x');
    expect(await bed.fail('delete_directory', { path: 'd' })).toMatchObject({ code: 'directory_not_empty', effect: 'none' });
    expect(text(await bed.fixtures.readFile('d/x.txt'))).toBe('x');
  });

  it('deletes a whole tree with recursive, unlinking links without following them', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('keep/target.txt', 'kept');
    await bed.fixtures.writeFile('tree/a/b/c.txt', 'c');
    await bed.fixtures.writeFile('tree/top.txt', 't');
    await bed.fixtures.makeDirectory('tree/empty');
    await bed.fixtures.symlink('tree/a/to-keep', '../../keep');
    await bed.fixtures.symlink('tree/to-file', '../keep/target.txt');
    await bed.fixtures.symlink('tree/out', bed.fixtures.outside.directoryTarget('tree'));
    await bed.fixtures.fifo('tree/a/pipe');
    const before = await bed.fixtures.outside.fingerprint();
    expect(await bed.ok('delete_directory', { path: 'tree', recursive: true })).toEqual({
      path: 'tree',
      kind: 'directory',
      deleted: true,
      recursive: true,
    });
    expect(await bed.fixtures.kindOf('tree')).toBe('missing');
    expect(text(await bed.fixtures.readFile('keep/target.txt'))).toBe('kept');
    expect(await bed.fixtures.outside.fingerprint()).toBe(before);
  });

  it('refuses a tree holding a .git alias at any depth before deleting anything', async () => {
    for (const name of ['.git', '.GIT', 'git~1', '.git.', '.git:stream']) {
      const bed = await createTestbed();
      await bed.fixtures.writeFile('tree/first.txt', '1');
      await bed.fixtures.writeFile(`tree/deep/er/${name}/HEAD`, 'ref');
      await bed.fixtures.writeFile('tree/zz.txt', 'z');
      const error = await bed.fail('delete_directory', { path: 'tree', recursive: true });
      expect(error, name).toMatchObject({ code: 'protected_path', effect: 'none' });
      expect(text(await bed.fixtures.readFile('tree/first.txt'))).toBe('1');
      expect(text(await bed.fixtures.readFile('tree/zz.txt'))).toBe('z');
      expect(text(await bed.fixtures.readFile(`tree/deep/er/${name}/HEAD`))).toBe('ref');
    }
  });

  it('treats .gitignore, .github and x.git as ordinary names', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('tree/.gitignore', 'x');
    await bed.fixtures.writeFile('tree/.github/workflows/ci.yml', 'x');
    await bed.fixtures.makeDirectory('tree/x.git');
    expect(await bed.ok('delete_directory', { path: 'tree', recursive: true })).toMatchObject({ deleted: true });
  });

  it('never deletes the workspace root, whatever the policy', async () => {
    const bed = await createTestbed({ config: { grants: [{ path: 'other', tree: true, rights: ['read'] }] } });
    await bed.fixtures.makeDirectory('a');
    for (const path of ['.', '', 'a/..', './/.']) {
      for (const recursive of [false, true]) {
        expect(await bed.fail('delete_directory', { path, recursive }), path).toMatchObject({ code: 'root_refused', effect: 'none' });
      }
    }
    expect(await bed.fixtures.kindOf('a')).toBe('directory');
  });

  it('refuses the root reached from a working directory below it', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/b');
    await bed.ok('set_working_directory', { path: 'a/b' });
    expect(await bed.fail('delete_directory', { path: '../..', recursive: true })).toMatchObject({ code: 'root_refused' });
    expect(await bed.ok('delete_directory', { path: '.' })).toEqual({ path: 'a/b', kind: 'directory', deleted: true, recursive: false });
  });

  it('fails on a missing directory unless missing_ok, echoing recursive', async () => {
    const bed = await createTestbed();
    expect(await bed.fail('delete_directory', { path: 'gone' })).toMatchObject({ code: 'not_found', effect: 'none' });
    for (const recursive of [false, true]) {
      expect(await bed.ok('delete_directory', { path: 'gone', missing_ok: true, recursive })).toEqual({
        path: 'gone',
        kind: 'missing',
        deleted: false,
        recursive,
      });
    }
  });

  it('refuses files, links and special files', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('file.txt', 'x');
    await bed.fixtures.writeFile('real/inner/x', 'x');
    await bed.fixtures.symlink('link', 'real');
    await bed.fixtures.fifo('pipe');
    const cases: [Record<string, unknown>, string][] = [
      [{ path: 'file.txt' }, 'not_a_directory'],
      [{ path: 'file.txt', recursive: true, missing_ok: true }, 'not_a_directory'],
      [{ path: 'pipe' }, 'not_a_directory'],
      [{ path: 'link' }, 'symlink_refused'],
      [{ path: 'link', recursive: true }, 'symlink_refused'],
      [{ path: 'link/inner', recursive: true }, 'symlink_refused'],
      [{ path: 'file.txt/x', missing_ok: true }, 'not_a_directory'],
      [{ path: '.git', recursive: true }, 'protected_path'],
    ];
    for (const [args, code] of cases) {
      expect(await bed.fail('delete_directory', args), JSON.stringify(args)).toMatchObject({ code, effect: 'none' });
    }
    expect(text(await bed.fixtures.readFile('real/inner/x'))).toBe('x');
    expect(await bed.fixtures.kindOf('link')).toBe('symlink');
  });
});
