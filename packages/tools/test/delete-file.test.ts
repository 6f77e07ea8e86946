import { describe, expect, it } from 'vitest';
import { createTestbed, text } from './support/harness.js';

describe('delete_file', () => {
  it('deletes one regular file', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('d/a.txt', 'x');
    await bed.fixtures.writeFile('d/b.txt', 'y');
    expect(await bed.ok('delete_file', { path: 'd/a.txt' })).toEqual({ path: 'd/a.txt', kind: 'file', deleted: true, recursive: false });
    expect(await bed.fixtures.kindOf('d/a.txt')).toBe('missing');
    expect(text(await bed.fixtures.readFile('d/b.txt'))).toBe('y');
  });

  it('fails on a missing file unless missing_ok', async () => {
    const bed = await createTestbed();
    expect(await bed.fail('delete_file', { path: 'gone.txt' })).toMatchObject({ code: 'not_found', effect: 'none' });
    expect(await bed.ok('delete_file', { path: 'gone.txt', missing_ok: true })).toEqual({
      path: 'gone.txt',
      kind: 'missing',
      deleted: false,
      recursive: false,
    });
    expect(await bed.ok('delete_file', { path: 'no/parent.txt', missing_ok: true })).toMatchObject({ kind: 'missing', deleted: false });
  });

  it('refuses a directory, the root included, even with missing_ok', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('dir');
    for (const args of [{ path: 'dir' }, { path: 'dir', missing_ok: true }, { path: '.' }, { path: 'dir/..' }]) {
      expect(await bed.fail('delete_file', args), JSON.stringify(args)).toMatchObject({ code: 'not_a_file', effect: 'none' });
    }
    expect(await bed.fixtures.kindOf('dir')).toBe('directory');
  });

  it('refuses links, hard-linked files and special files, leaving them in place', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('real/file.txt', 'real');
    await bed.fixtures.symlink('link.txt', 'real/file.txt');
    await bed.fixtures.symlink('dirlink', 'real');
    await bed.fixtures.symlink('out', bed.fixtures.outside.directoryTarget('.'));
    await bed.fixtures.writeFile('twin-a', 'twin');
    await bed.fixtures.hardLink('twin-a', 'twin-b');
    await bed.fixtures.fifo('pipe');
    await bed.fixtures.writeFile('plain', 'p');
    const before = await bed.fixtures.outside.fingerprint();
    const cases: [string, string][] = [
      ['link.txt', 'symlink_refused'],
      ['dirlink/file.txt', 'symlink_refused'],
      ['out/secret.txt', 'symlink_refused'],
      ['twin-a', 'hard_link_refused'],
      ['pipe', 'not_a_file'],
      ['plain/x', 'not_a_directory'],
      ['.git/index', 'protected_path'],
    ];
    for (const [path, code] of cases) {
      expect(await bed.fail('delete_file', { path, missing_ok: true }), path).toMatchObject({ code, effect: 'none' });
    }
    expect(await bed.fixtures.kindOf('link.txt')).toBe('symlink');
    expect(text(await bed.fixtures.readFile('real/file.txt'))).toBe('real');
    expect(await bed.fixtures.kindOf('twin-b')).toBe('file');
    expect(await bed.fixtures.kindOf('pipe')).toBe('other');
    expect(await bed.fixtures.outside.fingerprint()).toBe(before);
  });
});
