import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchScenario } from '../../tools/test/support/search-scenarios.js';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

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
    const { provider } = createMemfsTestbed();
    const dir = sandbox().index;
    const indexed = withSearchIndex(provider, { directory: dir }).provider;
    const { pushed, walked } = await twoRuntimes(indexed, provider);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(searchScenario, async ({ files, args }) => {
        const root = `r${round++}`;
        for (const { path, bytes } of files) await indexed.writeFile(`${root}/${path}` as WorkspacePath, bytes, { overwrite: true });
        const call = { path: root, ...args };
        expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
        // Rewritten through the index: the next search must see the new bytes, not the old filters.
        for (const { path, bytes } of files) await indexed.writeFile(`${root}/${path}` as WorkspacePath, bytes.slice().reverse(), { overwrite: true });
        expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
      }),
      { numRuns: 150 },
    );
  });

  it('answers exactly what the walk answers on disk, the tree written by another writer', async () => {
    const { root, index } = sandbox();
    mkdirSync(root, { recursive: true });
    const provider = createLocalProvider({ root });
    const indexed = withSearchIndex(provider, { directory: index });
    const { pushed, walked } = await twoRuntimes(indexed.provider, provider);
    let round = 0;
    try {
      await fc.assert(
        fc.asyncProperty(searchScenario, async ({ files, args }) => {
          const base = `r${round++}`;
          const write = (path: string, bytes: Uint8Array) => {
            mkdirSync(dirname(join(root, base, path)), { recursive: true });
            writeFileSync(join(root, base, path), bytes);
          };
          for (const { path, bytes } of files) write(path, bytes);
          const call = { path: base, ...args };
          expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
          // Same size, same second: only the watcher (or the change time) tells the index.
          for (const { path, bytes } of files) write(path, bytes.slice().reverse());
          expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
        }),
        { numRuns: 60 },
      );
      expect(indexed.stats()).toMatchObject({ watching: true, opened: 'built' });
    } finally {
      await indexed.provider.close();
    }
  });
});
