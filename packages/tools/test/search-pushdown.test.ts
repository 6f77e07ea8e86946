import {
  compareCodePoints,
  parentPath,
  type ConfigInput,
  type DirectoryEntry,
  type FileSystemProviderV1,
  type TreeSearchAnswer,
  type TreeSearchQuery,
  type WorkspacePath,
} from '@libos/core';
import { createMemfsTestbed, type MemfsFixtures } from '@libos/provider-memfs/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { searchScenario } from './support/search-scenarios.js';
import { walkOnly } from './support/walk-only.js';

async function twoRuntimes(provider: FileSystemProviderV1) {
  const pushed = (await createRuntime({ provider })).spawn();
  const walked = (await createRuntime({ provider: walkOnly(provider) })).spawn();
  return { pushed, walked };
}

type Spawned = Awaited<ReturnType<typeof twoRuntimes>>['pushed'];

/** The property both runtimes answer each generated scenario alike, written under a fresh root each time. */
function sameAsWalk(pushed: Spawned, walked: Spawned, fixtures: MemfsFixtures, nextRoot: () => string) {
  return fc.asyncProperty(searchScenario, async ({ files, args }) => {
    const root = nextRoot();
    for (const { path, bytes } of files) await fixtures.writeFile(`${root}/${path}`, bytes);
    const call = { path: root, ...args };
    const search: string = 'search_files';
    expect(await pushed.call(search, call)).toEqual(await walked.call(search, call));
  });
}

describe('search_files through a provider that searches its own tree', () => {
  it('answers exactly what the walk answers, on generated trees, ignore files and patterns', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    const { pushed, walked } = await twoRuntimes(provider);
    let round = 0;
    await fc.assert(
      sameAsWalk(pushed, walked, fixtures, () => `r${round++}`),
      { numRuns: 400 },
    );
  });

  it('answers exactly what the walk answers from an answer by listings, sorted or not, with entries named apart from their path', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    let round = 0;
    // memfs's own answer, regrouped by directory: every other round each listing reversed and given
    // an entry whose path lies elsewhere, which the tools must sort back and leave out.
    const byListings: FileSystemProviderV1 = {
      ...provider,
      async searchTree(path, query) {
        const answer = await provider.searchTree!(path, query);
        const listings = new Map<WorkspacePath, { entries: DirectoryEntry[]; candidates: Set<string> }>([
          [path, { entries: [], candidates: new Set() }],
        ]);
        for (const entry of answer.entries) if (entry.kind === 'directory') listings.set(entry.path, { entries: [], candidates: new Set() });
        for (const { candidate, read: _carried, ...entry } of answer.entries) {
          const listing = listings.get(parentPath(entry.path)!);
          listing?.entries.push(entry);
          if (candidate) listing?.candidates.add(entry.name);
        }
        for (const [at, listing] of listings) {
          listing.entries.sort((left, right) => compareCodePoints(left.name, right.name));
          if (round % 2 === 1) {
            const real = listing.entries.find((entry) => entry.kind === 'file');
            // A second entry of a real file's name, its path elsewhere: shown, it would be counted twice.
            if (real !== undefined) listing.entries.push({ ...real, path: `${at}-elsewhere/${real.name}` as WorkspacePath });
            listing.entries.reverse();
          }
        }
        return { complete: answer.complete, entries: [], listings };
      },
    };
    const { pushed, walked } = await twoRuntimes(byListings);
    await fc.assert(
      sameAsWalk(pushed, walked, fixtures, () => `r${round++}`),
      { numRuns: 200 },
    );
  });

  it('reads no file the provider vouched for, and reads the rest from its one answer', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    for (let index = 0; index < 50; index++) await fixtures.writeFile(`src/f${index}.txt`, index === 7 ? 'the needle here\n' : 'hay\n');
    const calls: string[] = [];
    const counted: FileSystemProviderV1 = {
      ...provider,
      readFile: (path, options) => (calls.push(`read ${path}`), provider.readFile(path, options)),
      listDirectory: (path, options) => (calls.push(`list ${path}`), provider.listDirectory(path, options)),
      searchTree: (path, query) => (calls.push(`tree ${path}`), provider.searchTree!(path, query)),
    };
    const process = (await createRuntime({ provider: counted })).spawn();
    const outcome = await process.call('search_files', { path: 'src', query: 'needle' });
    expect(outcome).toMatchObject({ ok: true, result: { count: 1, files_searched: 50, matches: [{ path: 'src/f7.txt', line: 1 }] } });
    expect(calls.filter((call) => !call.startsWith('read .gitignore'))).toEqual(['tree src']);
  });

  it('shows nothing a lying answer adds: entries outside the root, under .git, denied, or named apart from their path', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('src/ok.txt', 'needle\n');
    await fixtures.writeFile('private/key.txt', 'needle\n');
    await fixtures.writeFile('src/secret/key.txt', 'needle\n');
    const file = (path: string, name: string, text: string) => ({
      name,
      path: path as WorkspacePath,
      kind: 'file' as const,
      sizeBytes: text.length,
      modifiedAt: '2026-01-01T00:00:00.000Z',
      candidate: true,
      read: { bytes: new TextEncoder().encode(text), truncated: false },
    });
    const liar: FileSystemProviderV1 = {
      ...provider,
      async searchTree(path: WorkspacePath, query: TreeSearchQuery): Promise<TreeSearchAnswer> {
        const honest = await provider.searchTree!(path, query);
        return {
          complete: true,
          entries: [
            ...honest.entries,
            file('private/key.txt', 'key.txt', 'needle\n'),
            file('src/.git', '.git', 'needle\n'),
            file('src/alias.txt', 'secret', 'needle\n'),
          ],
        };
      },
    };
    const config: ConfigInput = {
      grants: [
        { path: '.', tree: true, rights: ['read'] },
        { path: 'src/secret', tree: true, rights: ['read'], mode: 'deny' },
      ],
    };
    const runtime = await createRuntime({ provider: liar, config });
    const outcome = await runtime.spawn().call('search_files', { path: 'src', query: 'needle' });
    expect(outcome.ok).toBe(true);
    const paths = outcome.ok ? (outcome.result.matches as { path: string }[]).map((match) => match.path) : [];
    expect(paths).toContain('src/ok.txt');
    for (const hidden of ['private/key.txt', 'src/.git', 'src/alias.txt', 'src/secret']) expect(paths).not.toContain(hidden);
  });

  it('ends at deadline_ms when the provider never answers its tree, having changed nothing', async () => {
    const { provider, fixtures } = createMemfsTestbed();
    await fixtures.writeFile('a/1.txt', 'token');
    const hanging: FileSystemProviderV1 = {
      ...provider,
      searchTree: (_path, query) =>
        new Promise((_resolve, reject) => query.signal?.addEventListener('abort', () => reject(query.signal?.reason), { once: true })),
    };
    const outcome = await (await createRuntime({ provider: hanging })).spawn().call('search_files', { path: '.', query: 'token', deadline_ms: 200 });
    expect(outcome).toMatchObject({ ok: true, result: { count: 0, truncated: true, stopped: 'deadline' } });
  });
});
