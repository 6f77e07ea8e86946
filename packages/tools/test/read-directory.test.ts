import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,}Z$/;

describe('read_directory', () => {
  it('lists one level with name, identity, kind, size and modification time', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('d/file.txt', 'héllo');
    await bed.fixtures.writeFile('d/sub/deep.txt', 'not listed');
    await bed.fixtures.symlink('d/link', 'file.txt');
    await bed.fixtures.fifo('d/pipe');
    const result = await bed.ok('read_directory', { path: 'd' });
    expect(result).toMatchObject({
      path: 'd',
      count: 4,
      truncated: false,
      entries: [
        { name: 'file.txt', path: 'd/file.txt', kind: 'file', size_bytes: 6 },
        { name: 'link', path: 'd/link', kind: 'symlink', size_bytes: null },
        { name: 'pipe', path: 'd/pipe', kind: 'other', size_bytes: null },
        { name: 'sub', path: 'd/sub', kind: 'directory', size_bytes: null },
      ],
    });
    for (const entry of result.entries as { modified_at: string }[]) {
      expect(entry.modified_at).toMatch(ISO_UTC);
      expect(new Date(entry.modified_at).toISOString().slice(0, 23)).toBe(entry.modified_at.slice(0, 23));
    }
  });

  it('sorts by code point, not by UTF-16 unit or locale', async () => {
    const bed = await createTestbed();
    const names = ['b', 'B', 'a', '\u{1F600}', '\uFF5E', 'é', 'e', '_', '10', '9'];
    for (const name of names) await bed.fixtures.writeFile(name, '');
    const result = await bed.ok('read_directory', { path: '.' });
    const listed = (result.entries as { name: string }[]).map((entry) => entry.name);
    expect(listed).toEqual(['10', '9', 'B', '_', 'a', 'b', 'e', 'é', '\uFF5E', '\u{1F600}']);
  });

  it('returns the first limit entries of that order and says the listing is truncated', async () => {
    const bed = await createTestbed();
    for (const name of ['e', 'c', 'a', 'd', 'b']) await bed.fixtures.writeFile(`d/${name}`, name);
    const two = await bed.ok('read_directory', { path: 'd', limit: 2 });
    expect(two).toMatchObject({ count: 2, truncated: true });
    expect((two.entries as { name: string }[]).map((entry) => entry.name)).toEqual(['a', 'b']);
    expect(await bed.ok('read_directory', { path: 'd', limit: 5 })).toMatchObject({ count: 5, truncated: false });
    expect(await bed.ok('read_directory', { path: 'd', limit: 6 })).toMatchObject({ count: 5, truncated: false });
  });

  it('uses bounds.list_limit_default when no limit is given', async () => {
    const bed = await createTestbed({ config: { bounds: { list_limit_default: 3 } } });
    for (const name of ['a', 'b', 'c', 'd']) await bed.fixtures.writeFile(name, '');
    expect(await bed.ok('read_directory', { path: '.' })).toMatchObject({ count: 3, truncated: true });
  });

  it('lists the root and an empty directory, and shows a .git entry', async () => {
    const bed = await createTestbed();
    await bed.fixtures.makeDirectory('.git');
    await bed.fixtures.makeDirectory('empty');
    const root = await bed.ok('read_directory', { path: '.' });
    expect(root).toMatchObject({ path: '.', count: 2, entries: [{ name: '.git', path: '.git', kind: 'directory' }, { name: 'empty' }] });
    expect(await bed.ok('read_directory', { path: 'empty' })).toEqual({ path: 'empty', entries: [], count: 0, truncated: false });
  });

  it('lists a non-UTF-8-safe name exactly as stored', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('caf\u00e9 \\ \ufffd.txt', '');
    const result = await bed.ok('read_directory', { path: '.' });
    expect(result).toMatchObject({ entries: [{ name: 'caf\u00e9 \\ \ufffd.txt' }] });
  });

  it('refuses what is not a directory', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('file.txt', 'x');
    await bed.fixtures.makeDirectory('real');
    await bed.fixtures.symlink('link', 'real');
    await bed.fixtures.symlink('dangling', 'nowhere');
    await bed.fixtures.fifo('pipe');
    const cases: [string, string][] = [
      ['missing', 'not_found'],
      ['file.txt', 'not_a_directory'],
      ['file.txt/below', 'not_a_directory'],
      ['pipe', 'not_a_directory'],
      ['link', 'symlink_refused'],
      ['link/inner', 'symlink_refused'],
      ['dangling', 'symlink_refused'],
      ['.git', 'protected_path'],
      ['..', 'outside_workspace'],
    ];
    for (const [path, code] of cases) {
      expect(await bed.fail('read_directory', { path }), path).toMatchObject({ code, effect: 'none' });
    }
  });
});
