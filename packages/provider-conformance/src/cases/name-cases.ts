import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { codePointSort, text } from './case-helpers.js';

const group = 'names';

/** Names a host might trim, split, normalize or truncate; the contract keeps each one as spelled. */
const unusualNames: ReadonlyArray<readonly [label: string, name: string]> = [
  ['spaces inside', 'a b  c'],
  ['leading and trailing spaces', ' padded '],
  ['a trailing dot', 'name.'],
  ['a backslash', 'back\\slash'],
  ['a colon', 'a:b'],
  ['unicode and an astral character', 'ünïcødé 😀'],
  ['a leading dash and a tilde', '-x~1'],
  ['255 ASCII bytes', 'n'.repeat(255)],
  ['255 UTF-8 bytes of three-byte characters', '€'.repeat(85)],
];

// 2047 one-byte directories and a file: 4095 bytes, as deep as a canonical path can reach.
const deepestDirectory = Array.from({ length: 2047 }, () => 'a').join('/');

// 17 components of 240 bytes joined by 16 slashes: exactly the 4096 bytes a path may hold.
const longestPath = Array.from({ length: 17 }, (_, index) => String.fromCharCode(97 + index).repeat(240)).join('/');

/** Unusual names survive every method unchanged, and a path opens only the name it spells. */
export const nameCases: readonly ConformanceCase[] = [
  ...unusualNames.map(([label, name]) =>
    defineCase(group, `a name with ${label} round-trips through every method`, async ({ provider, fixtures, path }) => {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(await provider.makeDirectory(path(name), { parents: false, existOk: false })).toEqual({ created: true });
      const file = `${name}/${name}`;
      expect(await provider.writeFile(path(file), utf8(name), { overwrite: false })).toEqual({ created: true });
      expect(text(await fixtures.readFile(file))).toBe(name);
      expect(await provider.stat(path(file))).toMatchObject({ kind: 'file', sizeBytes: Buffer.byteLength(name) });
      expect(text((await provider.readFile(path(file), { maxBytes: 1024 })).bytes)).toBe(name);
      const root = await provider.listDirectory(path('.'), { limit: 10 });
      expect(root.entries.map((entry) => [entry.name, entry.path, entry.kind])).toEqual([[name, name, 'directory']]);
      const inner = await provider.listDirectory(path(name), { limit: 10 });
      expect(inner.entries.map((entry) => [entry.name, entry.path, entry.kind])).toEqual([[name, file, 'file']]);
      expect(await provider.deleteFile(path(file), { missingOk: false })).toEqual({ deleted: true });
      expect(await provider.deleteDirectory(path(name), { recursive: false, missingOk: false })).toEqual({ deleted: true });
      expect(await fixtures.kindOf(name)).toBe('missing');
    }),
  ),
  defineCase(group, 'names differing only in case or Unicode normalization are distinct', async ({ provider, fixtures, path }) => {
    const names = ['é', 'e\u0301', 'A', 'a', 'ﬁ', 'fi'];
    for (const name of names) await fixtures.writeFile(`d/${name}`, `content of ${name}`);
    for (const name of names) {
      expect(text((await provider.readFile(path(`d/${name}`), { maxBytes: 64 })).bytes)).toBe(`content of ${name}`);
    }
    const listing = await provider.listDirectory(path('d'), { limit: 10 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(codePointSort(names));
    await provider.writeFile(path('d/é'), utf8('replaced'), { overwrite: true });
    expect(text(await fixtures.readFile('d/e\u0301'))).toBe('content of e\u0301');
    await provider.deleteFile(path('d/A'), { missingOk: false });
    expect(await fixtures.kindOf('d/a')).toBe('file');
  }),
  defineCase(group, 'a path of exactly 4096 bytes can be written, read, listed and deleted', async ({ provider, path }) => {
    expect(Buffer.byteLength(longestPath)).toBe(4096);
    const parent = longestPath.slice(0, longestPath.lastIndexOf('/'));
    expect(await provider.writeFile(path(longestPath), utf8('deep'), { overwrite: true })).toEqual({ created: true });
    expect(await provider.stat(path(longestPath))).toMatchObject({ kind: 'file', sizeBytes: 4 });
    expect(text((await provider.readFile(path(longestPath), { maxBytes: 16 })).bytes)).toBe('deep');
    const listing = await provider.listDirectory(path(parent), { limit: 10 });
    expect(listing.entries.map((entry) => entry.path)).toEqual([longestPath]);
    // Deleting through the provider also keeps host cleanup within path-length limits.
    expect(await provider.deleteDirectory(path('a'.repeat(240)), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect((await provider.stat(path('.'))).kind).toBe('directory');
    expect((await provider.listDirectory(path('.'), { limit: 1 })).entries).toEqual([]);
  }),
  defineCase(
    group,
    'the deepest tree a canonical path can reach is made, written into and deleted whole',
    async ({ provider, fixtures, path }) => {
      const file = `${deepestDirectory}/f`;
      expect(Buffer.byteLength(file)).toBe(4095);
      expect(await provider.makeDirectory(path(deepestDirectory), { parents: true, existOk: false })).toEqual({ created: true });
      expect(await provider.writeFile(path(file), utf8('bottom'), { overwrite: false })).toEqual({ created: true });
      expect(text((await provider.readFile(path(file), { maxBytes: 16 })).bytes)).toBe('bottom');
      // No tree the path rules let the tools build may be too deep for the provider to delete.
      expect(await provider.deleteDirectory(path('a'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
      expect(await fixtures.kindOf('a')).toBe('missing');
      // Thousands of nested directories: a disk-backed store may take several deadlines' time.
    },
    {},
    8,
  ),
];
