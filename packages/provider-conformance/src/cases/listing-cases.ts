import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { codePointSort, expectIsoTime, expectUnchanged } from './case-helpers.js';

const group = 'listing';

// U+1F600 is stored as the surrogates D83D DE00, so UTF-16 unit order puts it before U+FF5E.
const mixedNames = ['😀', '～', 'é', 'a', 'B', 'b.txt', 'a b', 'a\\b', 'Z'];
const codePointOrder = ['B', 'Z', 'a', 'a b', 'a\\b', 'b.txt', 'é', '～', '😀'];

/** Listings: one level, code-point order, `limit` and `truncated`, kinds, sizes, times, canonical paths. */
export const listingCases: readonly ConformanceCase[] = [
  defineCase(group, 'an empty directory lists nothing', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('empty');
    expect(await provider.listDirectory(path('empty'), { limit: 10 })).toEqual({ entries: [], truncated: false });
  }),
  defineCase(group, 'names sort by code point, astral after every BMP name', async ({ provider, fixtures, path }) => {
    expect(codePointSort(mixedNames)).toEqual(codePointOrder);
    for (const name of mixedNames) await fixtures.writeFile(`d/${name}`, name);
    const listing = await provider.listDirectory(path('d'), { limit: 100 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(codePointOrder);
    expect(listing.truncated).toBe(false);
  }),
  defineCase(group, 'limit keeps the smallest names in code-point order and sets truncated', async ({ provider, fixtures, path }) => {
    for (const name of ['😀', 'z', '～', 'a']) await fixtures.writeFile(name, '');
    const listing = await provider.listDirectory(path('.'), { limit: 3 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['a', 'z', '～']);
    expect(listing.truncated).toBe(true);
  }),
  defineCase(group, 'limit 1 returns the smallest name', async ({ provider, fixtures, path }) => {
    for (const name of ['😀', '～', 'é']) await fixtures.writeFile(name, '');
    const listing = await provider.listDirectory(path('.'), { limit: 1 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['é']);
    expect(listing.truncated).toBe(true);
  }),
  defineCase(group, 'a limit equal to the count is not truncated', async ({ provider, fixtures, path }) => {
    for (const name of ['c', 'a', 'b']) await fixtures.writeFile(name, '');
    const exact = await provider.listDirectory(path('.'), { limit: 3 });
    expect(exact.entries.map((entry) => entry.name)).toEqual(['a', 'b', 'c']);
    expect(exact.truncated).toBe(false);
    expect((await provider.listDirectory(path('.'), { limit: 4 })).truncated).toBe(false);
  }),
  defineCase(group, 'a small limit over many entries returns exactly limit entries', async ({ provider, fixtures, path }) => {
    const names = Array.from({ length: 240 }, (_, index) => `n${((index * 7919) % 240).toString().padStart(3, '0')}`);
    for (const name of names) await fixtures.writeFile(`many/${name}`, '');
    const listing = await provider.listDirectory(path('many'), { limit: 7 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(codePointSort(names).slice(0, 7));
    expect(listing.truncated).toBe(true);
  }),
  defineCase(group, 'entries report kind, size in bytes, ISO time and canonical path', async (context) => {
    const { provider, fixtures, path } = context;
    await fixtures.writeFile('a/b/file.txt', 'ünï');
    await fixtures.writeFile('a/b/empty', '');
    await fixtures.makeDirectory('a/b/sub');
    const listing = await expectUnchanged(context, [], () => provider.listDirectory(path('a/b'), { limit: 10 }));
    expect(listing.entries.map(({ name, path: entryPath, kind, sizeBytes }) => ({ name, path: entryPath, kind, sizeBytes }))).toEqual([
      { name: 'empty', path: 'a/b/empty', kind: 'file', sizeBytes: 0 },
      { name: 'file.txt', path: 'a/b/file.txt', kind: 'file', sizeBytes: 5 },
      { name: 'sub', path: 'a/b/sub', kind: 'directory', sizeBytes: null },
    ]);
    for (const entry of listing.entries) expectIsoTime(entry.modifiedAt);
  }),
  defineCase(group, 'root entries have bare names as paths and only one level is listed', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('top/inner/deep.txt', 'x');
    await fixtures.writeFile('file', 'x');
    const listing = await provider.listDirectory(path('.'), { limit: 10 });
    expect(listing.entries.map((entry) => [entry.name, entry.path, entry.kind])).toEqual([
      ['file', 'file', 'file'],
      ['top', 'top', 'directory'],
    ]);
  }),
];
