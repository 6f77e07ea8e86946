import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

// The generated scenarios of tools' own differential test, imported by a path the package's
// typecheck does not follow (it lies outside this package's root).
const scenarios = new URL('../../tools/test/support/search-scenarios.ts', import.meta.url).href;
type Scenario = { files: readonly { path: string; bytes: Uint8Array }[]; args: Record<string, unknown> };
const { searchScenario } = (await import(scenarios)) as { searchScenario: fc.Arbitrary<Scenario> };
// The scenarios' arguments are generated, so the call is typed loosely.
const SEARCH: string = 'search_files';

// Every other file, grown by text the search looks for: a file that did not match may match now,
// and an index answering from its old filters would leave it out.
function grown(files: readonly { path: string; bytes: Uint8Array }[], args: Record<string, unknown>) {
  const extra = new TextEncoder().encode(args.regex === true ? '\nfoo abx ab{1}\n' : `\n${String(args.query)}\n`);
  return files.map(({ path, bytes }, index) => ({ path, bytes: index % 2 === 0 ? Buffer.concat([bytes, extra]) : bytes.slice().reverse() }));
}

// The provider as the tools would walk it, without any searchTree.
function walkOnly(provider: FileSystemProviderV1): FileSystemProviderV1 {
  const { searchTree: _unused, ...rest } = provider;
  return rest;
}

async function twoRuntimes(indexed: FileSystemProviderV1, plain: FileSystemProviderV1) {
  return {
    pushed: (await createRuntime({ provider: indexed })).spawn(),
    walked: (await createRuntime({ provider: walkOnly(plain) })).spawn(),
  };
}

describe('search_files answered from the index', () => {
  it('answers exactly what the walk answers on memfs, the tree written through the index', async () => {
    const dir = sandbox().index;
    await fc.assert(
      fc.asyncProperty(searchScenario, async ({ files, args }) => {
        const { provider } = createMemfsTestbed();
        const indexed = withSearchIndex(provider, { directory: dir }).provider;
        const { pushed, walked } = await twoRuntimes(indexed, provider);
        const call = { path: '.', ...args };
        for (const { path, bytes } of files) await indexed.writeFile(path as WorkspacePath, bytes, { overwrite: true });
        expect(await pushed.call(SEARCH, call)).toEqual(await walked.call(SEARCH, call));
        // Rewritten through the index: the next search must see the new bytes, not the old filters.
        for (const { path, bytes } of grown(files, args)) await indexed.writeFile(path as WorkspacePath, bytes, { overwrite: true });
        expect(await pushed.call(SEARCH, call)).toEqual(await walked.call(SEARCH, call));
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('answers exactly what the walk answers on disk, the tree written and emptied by another writer', async () => {
    const { root, index } = sandbox();
    mkdirSync(root, { recursive: true });
    const provider = createLocalProvider({ root });
    const indexed = withSearchIndex(provider, { directory: index });
    const { pushed, walked } = await twoRuntimes(indexed.provider, provider);
    const write = (path: string, bytes: Uint8Array) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), bytes);
    };
    try {
      await fc.assert(
        fc.asyncProperty(searchScenario, async ({ files, args }) => {
          for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true });
          for (const { path, bytes } of files) write(path, bytes);
          const call = { path: '.', ...args };
          expect(await pushed.call(SEARCH, call)).toEqual(await walked.call(SEARCH, call));
          // Within the same second: only the watcher (or the change time) tells the index.
          for (const { path, bytes } of grown(files, args)) write(path, bytes);
          expect(await pushed.call(SEARCH, call)).toEqual(await walked.call(SEARCH, call));
        }),
        { numRuns: 80 },
      );
      expect(indexed.stats()).toMatchObject({ watching: true, opened: 'built' });
    } finally {
      await indexed.provider.close();
    }
  }, 120_000);
});
