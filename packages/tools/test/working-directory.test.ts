import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

describe('get_working_directory', () => {
  it('starts at the root and follows set_working_directory', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('get_working_directory', {})).toEqual({ working_directory: '.' });
    await bed.fixtures.makeDirectory('a/b');
    await bed.ok('set_working_directory', { path: 'a/b' });
    expect(await bed.ok('get_working_directory', {})).toEqual({ working_directory: 'a/b' });
  });
});

describe('set_working_directory', () => {
  it('stores the canonical identity, resolving against the current working directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a/b/c');
    expect(await bed.ok('set_working_directory', { path: 'a/./b//' })).toEqual({ working_directory: 'a/b' });
    expect(bed.process.cwd).toBe('a/b');
    expect(await bed.ok('set_working_directory', { path: 'c' })).toEqual({ working_directory: 'a/b/c' });
    expect(await bed.ok('set_working_directory', { path: '' })).toEqual({ working_directory: 'a/b/c' });
    expect(await bed.ok('set_working_directory', { path: '.' })).toEqual({ working_directory: 'a/b/c' });
    expect(await bed.ok('set_working_directory', { path: '../../b/../..' })).toEqual({ working_directory: '.' });
  });

  it('keeps the old working directory when its result is over result_max_bytes', async () => {
    const bed = await createTestbed({ config: { bounds: { result_max_bytes: 40 } } });
    await bed.fixtures.makeDirectory('a-directory-with-a-rather-long-name');
    expect(await bed.fail('set_working_directory', { path: 'a-directory-with-a-rather-long-name' })).toMatchObject({
      code: 'result_too_large',
      effect: 'none',
    });
    expect(bed.process.cwd).toBe('.');
    expect(await bed.ok('set_working_directory', { path: '.' })).toEqual({ working_directory: '.' });
  });

  it('makes relative paths of every tool resolve against it and returns root-relative identities', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a/note.txt', 'hi');
    await bed.fixtures.writeFile('top.txt', 'top');
    await bed.ok('set_working_directory', { path: 'a' });
    expect(await bed.ok('read_text_file', { path: 'note.txt' })).toMatchObject({ path: 'a/note.txt', content: 'hi' });
    expect(await bed.ok('read_text_file', { path: '../top.txt' })).toMatchObject({ path: 'top.txt', content: 'top' });
    expect(await bed.ok('read_directory', { path: '.' })).toMatchObject({ path: 'a', entries: [{ name: 'note.txt', path: 'a/note.txt' }] });
    expect(await bed.ok('write_directory', { path: 'sub' })).toEqual({ path: 'a/sub', created: true });
    expect(await bed.ok('write_text_file', { path: 'sub/x', content: '' })).toMatchObject({ path: 'a/sub/x' });
    expect(await bed.ok('delete_file', { path: 'sub/x' })).toMatchObject({ path: 'a/sub/x' });
    expect(await bed.ok('delete_directory', { path: 'sub' })).toMatchObject({ path: 'a/sub' });
    expect(await bed.fail('read_directory', { path: '../..' })).toMatchObject({ code: 'outside_workspace' });
  });

  it('treats a backslash as an ordinary character', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('a\\b');
    expect(await bed.ok('set_working_directory', { path: 'a\\b' })).toEqual({ working_directory: 'a\\b' });
    expect(await bed.fail('set_working_directory', { path: '..\\..' })).toMatchObject({ code: 'not_found' });
  });

  it('refuses what is not an existing directory and keeps the old working directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('start/real');
    await bed.fixtures.writeFile('start/file.txt', 'x');
    await bed.fixtures.symlink('start/link', 'real');
    await bed.fixtures.symlink('start/dangling', 'nowhere');
    await bed.fixtures.fifo('start/pipe');
    await bed.ok('set_working_directory', { path: 'start' });
    const cases: [string, string][] = [
      ['missing', 'not_found'],
      ['missing/deeper', 'not_found'],
      ['file.txt', 'not_a_directory'],
      ['file.txt/sub', 'not_a_directory'],
      ['pipe', 'not_a_directory'],
      ['link', 'symlink_refused'],
      ['link/', 'symlink_refused'],
      ['dangling', 'symlink_refused'],
      ['../../x', 'outside_workspace'],
      ['.git', 'protected_path'],
      ['real/../GIT~1', 'protected_path'],
      ['/start', 'invalid_path'],
      ['a\u0000', 'invalid_path'],
    ];
    for (const [path, code] of cases) {
      expect(await bed.fail('set_working_directory', { path }), path).toMatchObject({ code, effect: 'none' });
      expect(bed.process.cwd).toBe('start');
    }
  });

  it('needs read authority from a tree grant on the directory', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: 'open', tree: true, rights: ['read'] },
          { path: 'flat', rights: ['read', 'write', 'delete'] },
          { path: 'writable', tree: true, rights: ['write'] },
        ],
      },
    });
    await bed.fixtures.makeDirectory('open/inner');
    await bed.fixtures.makeDirectory('flat');
    await bed.fixtures.makeDirectory('writable');
    expect(await bed.ok('set_working_directory', { path: 'open/inner' })).toEqual({ working_directory: 'open/inner' });
    expect(await bed.fail('set_working_directory', { path: '../../flat' })).toMatchObject({ code: 'denied' });
    expect(await bed.fail('set_working_directory', { path: '../../writable' })).toMatchObject({ code: 'denied' });
    expect(bed.process.cwd).toBe('open/inner');
  });
});
