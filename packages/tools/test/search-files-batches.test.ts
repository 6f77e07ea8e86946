import { LibosError, childPath, providerErrors } from '@libos/core';
import type { DirectoryHandle, FileRead, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { walkOnly } from './support/walk-only.js';

interface Seen {
  opened: string[];
  singleReads: string[];
  batches: string[][];
}

// Handles over memfs's path calls, with or without a batch read, recording what the walk asks for.
// `refuse` names files whose batch slot (or single read) holds that error instead of the bytes.
function withHandles(provider: FileSystemProviderV1, options: { batch: boolean; refuse?: Record<string, LibosError>; refuseBatches?: LibosError }) {
  const seen: Seen = { opened: [], singleReads: [], batches: [] };
  const refusalOf = (path: WorkspacePath) => options.refuse?.[path];
  const handle = (path: WorkspacePath): DirectoryHandle => {
    seen.opened.push(path);
    const readOne = async (name: string, maxBytes: number): Promise<FileRead> => {
      const child = childPath(path, name);
      const refusal = refusalOf(child);
      if (refusal !== undefined) throw refusal;
      return provider.readFile(child, { maxBytes });
    };
    return {
      path,
      list: (listOptions) => provider.listDirectory(path, listOptions),
      openDirectory: async (name) => handle(childPath(path, name)),
      readFile: (name, readOptions) => {
        seen.singleReads.push(childPath(path, name));
        return readOne(name, readOptions.maxBytes);
      },
      ...(options.batch
        ? {
            async readFiles(names: readonly string[], readOptions: { maxBytes: number }) {
              seen.batches.push(names.map((name) => childPath(path, name)));
              if (options.refuseBatches !== undefined) throw options.refuseBatches;
              const answers: (FileRead | LibosError)[] = [];
              for (const name of names) answers.push(await readOne(name, readOptions.maxBytes).catch((error: LibosError) => error));
              return answers;
            },
          }
        : {}),
      close: () => undefined,
    };
  };
  // Without `searchTree`: these tests watch the walk's own handles and batches.
  const wrapped: FileSystemProviderV1 = {
    ...walkOnly(provider),
    openDirectory: async (path) => handle(path),
    close: () => provider.close(),
  };
  return { wrapped, seen };
}

async function searchWith(
  batch: boolean,
  files: Record<string, string>,
  args: Record<string, unknown>,
  refuse?: Record<string, LibosError>,
  refuseBatches?: LibosError,
) {
  const { provider, fixtures } = createMemfsTestbed();
  for (const [path, content] of Object.entries(files)) await fixtures.writeFile(path, content);
  const { wrapped, seen } = withHandles(provider, {
    batch,
    ...(refuse === undefined ? {} : { refuse }),
    ...(refuseBatches === undefined ? {} : { refuseBatches }),
  });
  const runtime = await createRuntime({ provider: wrapped });
  const outcome = await runtime.spawn().call('search_files', { path: '.', query: 'token', ...args });
  await runtime.close();
  return { outcome, seen };
}

const TREE: Record<string, string> = {
  '.gitignore': 'skip.txt\n',
  'a.txt': 'token a',
  'b.txt': 'nothing',
  'c/d.txt': 'token d',
  'c/skip.txt': 'token skipped',
  'e.txt': 'token e',
  'f.txt': 'token f',
};

describe('search_files through directory handles', () => {
  it('walks through the provider handles, reading each run of files with one batch, the same answer as per-file reads', async () => {
    const batched = await searchWith(true, TREE, {});
    const single = await searchWith(false, TREE, {});
    const plain = await (async () => {
      const { provider, fixtures } = createMemfsTestbed();
      for (const [path, content] of Object.entries(TREE)) await fixtures.writeFile(path, content);
      const runtime = await createRuntime({ provider });
      const outcome = await runtime.spawn().call('search_files', { path: '.', query: 'token' });
      await runtime.close();
      return outcome;
    })();
    expect(batched.outcome).toEqual(plain);
    expect(single.outcome).toEqual(plain);
    expect(batched.outcome).toMatchObject({ ok: true, result: { count: 4, files_searched: 6, skipped_ignored: 1 } });
    // The walk holds each directory once; its files are read in runs that stop at a directory.
    expect(batched.seen.opened).toEqual(['.', 'c']);
    expect(batched.seen.batches).toEqual([['.gitignore', 'a.txt', 'b.txt'], ['c/d.txt'], ['e.txt', 'f.txt']]);
    // Only the walk's own read of each .gitignore, to apply it, is a single read.
    expect(batched.seen.singleReads).toEqual(['.gitignore']);
    expect(single.seen.singleReads.filter((path) => !path.endsWith('.gitignore'))).toEqual(['a.txt', 'b.txt', 'c/d.txt', 'e.txt', 'f.txt']);
  });

  it('a slot refused as a link is passed by like a refused read; any other failure in a slot fails the call', async () => {
    const link = await searchWith(true, TREE, {}, { 'e.txt': providerErrors.symlinkRefused('e.txt' as WorkspacePath) });
    expect(link.outcome).toMatchObject({ ok: true, result: { count: 3, files_searched: 5 } });
    const broken = await searchWith(true, TREE, {}, { 'e.txt': new LibosError('provider_failure', 'the disk is gone', { effect: 'none' }) });
    expect(broken.outcome).toMatchObject({ ok: false, error: { code: 'provider_failure' } });
    // A whole batch refused as a vanished entry passes its first file by, as that file's read would, and the walk goes on.
    const vanished = await searchWith(true, { 'a.txt': 'token', 'b.txt': 'token' }, {}, undefined, providerErrors.notFound('a.txt' as WorkspacePath));
    expect(vanished.outcome).toMatchObject({ ok: true, result: { count: 0, files_searched: 0, stopped: null } });
    expect(vanished.seen.batches).toEqual([['a.txt', 'b.txt'], ['b.txt']]);
  });

  it('never asks a batch for more files than max_files leaves, nor more bytes than its bound', async () => {
    const many: Record<string, string> = {};
    for (let index = 0; index < 200; index++) many[`f${String(index).padStart(3, '0')}.txt`] = 'token';
    const few = await searchWith(true, many, { max_files: 10 });
    expect(few.outcome).toMatchObject({ ok: true, result: { files_searched: 10, stopped: 'max_files' } });
    expect(few.seen.batches.flat()).toHaveLength(10);
    const large = await searchWith(true, many, { max_files: 200, max_results: 1000, max_bytes_per_file: 1_048_576 });
    expect(large.outcome).toMatchObject({ ok: true, result: { files_searched: 200, count: 200 } });
    // 4 MiB a batch at 1 MiB (and the byte that tells a longer file) per file: three files at most.
    expect(Math.max(...large.seen.batches.map((batch) => batch.length))).toBe(3);
    const small = await searchWith(true, many, { max_files: 200, max_results: 1000, max_bytes_per_file: 1000 });
    expect(Math.max(...small.seen.batches.map((batch) => batch.length))).toBe(64);
    expect(small.seen.batches.flat()).toHaveLength(200);
  });
});
