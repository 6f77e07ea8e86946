import type { DirectoryEntry, FileSystemProviderV1, TreeSearchAnswer, TreeSearchEntry, TreeSearchQuery, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { utf8 } from '../case-context.js';

const needs = (...capabilities: CapabilityName[]) => ({ methods: ['searchTree'] as const, capabilities });

const QUERY: TreeSearchQuery = { needles: [], alwaysNames: [], maxBytes: 1000, maxEntries: 1000, maxCarriedBytes: 1_000_000 };

// Only cases that declare `methods: ['searchTree']` call this, and the kit skips them for a provider without it.
function search(provider: FileSystemProviderV1, path: WorkspacePath, query: Partial<TreeSearchQuery> = {}): Promise<TreeSearchAnswer> {
  return provider.searchTree!(path, { ...QUERY, ...query });
}

// Every entry below `path` as the provider's own listings show them, directory by directory.
async function listedTree(provider: FileSystemProviderV1, path: WorkspacePath): Promise<DirectoryEntry[]> {
  const found: DirectoryEntry[] = [];
  const { entries } = await provider.listDirectory(path, { limit: 1000 });
  for (const entry of entries) {
    found.push(entry);
    if (entry.kind === 'directory') found.push(...(await listedTree(provider, entry.path)));
  }
  return found;
}

// The answer's entries, from `listings` when the provider answers by directory.
function entriesOf(answer: TreeSearchAnswer): TreeSearchEntry[] {
  if (answer.listings === undefined) return [...answer.entries];
  return [...answer.listings.values()].flatMap((listing) =>
    listing.entries.map((entry) => ({ ...entry, candidate: entry.kind === 'file' && listing.candidates.has(entry.name) })),
  );
}

const byPath = (left: { path: string }, right: { path: string }) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0);
const listed = (answer: TreeSearchAnswer): DirectoryEntry[] =>
  entriesOf(answer)
    .map(({ name, path, kind, sizeBytes, modifiedAt }) => ({ name, path, kind, sizeBytes, modifiedAt }))
    .sort(byPath);

/**
 * `searchTree`: the tree below a directory as its listings show it, every file that holds the
 * needles marked, carried bytes exactly `readFile`'s. A provider may spare the tools reads with it,
 * never change what they find.
 */
export const treeSearchCases: readonly ConformanceCase[] = [
  defineCase(
    'tree search',
    'answers every entry below the directory exactly as the listings show it, never the directory or what is beside it',
    async ({ provider, fixtures, path, expectClean }) => {
      await fixtures.writeFile('d/a.txt', 'alpha');
      await fixtures.writeFile('d/sub/b.txt', 'beta');
      await fixtures.writeFile('d/sub/deeper/c.txt', 'gamma');
      await fixtures.makeDirectory('d/empty');
      await fixtures.writeFile('beside.txt', 'not below d');
      const answer = await search(provider, path('d'));
      expect(answer.complete).toBe(true);
      expect(listed(answer)).toEqual((await listedTree(provider, path('d'))).sort(byPath));
      expectClean(answer);
    },
    needs(),
  ),
  defineCase(
    'tree search',
    'marks every file that holds all needles (and every file of an always name), and carries reads exactly as readFile answers',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('d/both.txt', 'a needle and a thread');
      await fixtures.writeFile('d/one.txt', 'a needle alone');
      await fixtures.writeFile('d/none.txt', 'hay');
      await fixtures.writeFile('d/sub/deep.txt', `${'x'.repeat(40)} thread, needle`);
      await fixtures.writeFile('d/sub/.gitignore', 'hay\n');
      const answer = await search(provider, path('d'), { needles: [utf8('needle'), utf8('thread')], alwaysNames: ['.gitignore'], maxBytes: 64 });
      const entry = (at: string) => entriesOf(answer).find((found) => found.path === at);
      for (const candidate of ['d/both.txt', 'd/sub/deep.txt', 'd/sub/.gitignore']) expect(entry(candidate)?.candidate, candidate).toBe(true);
      for (const found of entriesOf(answer)) {
        if (found.read === undefined) continue;
        expect(found.candidate, found.path).toBe(true);
        expect(found.read).toEqual(await provider.readFile(found.path, { maxBytes: 64 }));
      }
      const short = await search(provider, path('d'), { needles: [utf8('needle')], maxBytes: 4 });
      for (const found of entriesOf(short))
        if (found.read !== undefined) expect(found.read).toEqual(await provider.readFile(found.path, { maxBytes: 4 }));
    },
    needs(),
  ),
  defineCase(
    'tree search',
    'marks every file that holds the folded needles in any ASCII case (a provider that does not fold marks every file)',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('d/upper.txt', 'A NEEDLE IN CAPITALS');
      await fixtures.writeFile('d/mixed.txt', 'a NeEdLe, mixed');
      const answer = await search(provider, path('d'), { foldedNeedles: [utf8('needle')] });
      for (const name of ['upper.txt', 'mixed.txt']) expect(entriesOf(answer).find((found) => found.name === name)?.candidate, name).toBe(true);
    },
    needs(),
  ),
  defineCase(
    'tree search',
    'answers incomplete past maxEntries, and carries no more bytes than maxCarriedBytes',
    async ({ provider, fixtures, path }) => {
      for (let index = 0; index < 6; index++) await fixtures.writeFile(`d/f${index}.txt`, 'twelve bytes');
      expect((await search(provider, path('d'), { maxEntries: 5 })).complete).toBe(false);
      const answer = await search(provider, path('d'), { maxEntries: 6, maxCarriedBytes: 30 });
      expect(answer.complete).toBe(true);
      expect(entriesOf(answer)).toHaveLength(6);
      const carried = entriesOf(answer).reduce((sum, found) => sum + (found.read?.bytes.length ?? 0), 0);
      expect(carried).toBeLessThanOrEqual(30);
    },
    needs(),
  ),
  defineCase(
    'tree search',
    'refuses a missing directory, a file and a path through a file as listDirectory does',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('f.txt', 'file');
      await expectError(() => search(provider, path('missing')), 'not_found');
      await expectError(() => search(provider, path('f.txt')), 'not_a_directory');
      await expectError(() => search(provider, path('f.txt/below')), ['not_a_directory', 'not_found']);
    },
    needs(),
  ),
  defineCase(
    'tree search',
    'lists a link as its parent does and never answers what lies behind it',
    async ({ provider, fixtures, path, expectClean, expectError }) => {
      await fixtures.writeFile('d/a.txt', 'alpha');
      await fixtures.symlink('d/out', fixtures.outside.directoryTarget('d'));
      await fixtures.symlink('d/file-link', fixtures.outside.fileTarget('d'));
      const answer = await search(provider, path('d'));
      expect(listed(answer)).toEqual((await listedTree(provider, path('d'))).sort(byPath));
      expect(entriesOf(answer).every((found) => !found.path.startsWith('d/out/'))).toBe(true);
      expect(entriesOf(answer).every((found) => found.read === undefined || found.kind === 'file')).toBe(true);
      expectClean(answer);
      await expectError(() => search(provider, path('d/out')), 'symlink_refused');
    },
    needs('symlinks'),
  ),
];
