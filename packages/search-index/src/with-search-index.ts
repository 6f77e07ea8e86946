import { isAbsolute } from 'node:path';
import { LibosError, type FileSystemProviderV1, type TreeSearchAnswer, type WorkspacePath } from '@libos/core';
import { wrapProvider } from '@libos/provider-kit';
import { answerSearch } from './answer-search.js';
import { SearchIndex, type SearchIndexStats } from './search-index.js';

/** Default bytes of each file's start that are indexed: the tools' largest read of one file. */
const INDEXED_BYTES = 1_048_576;

export interface SearchIndexOptions {
  /** An absolute directory for the index's files (created if missing): outside every root the agent is served. */
  readonly directory: string;
  /** Bytes of each file's start that are indexed (default 1 MiB); a search reading past them reads such files. */
  readonly indexedBytes?: number;
}

/** A provider whose `searchTree` the index answers, and the index's own handle. */
export interface IndexedProvider {
  readonly provider: FileSystemProviderV1;
  /** What the index holds, against the tree's size. */
  stats(): SearchIndexStats;
  /** Brings the index up to date now (the first search would), and saves it. */
  warm(): Promise<void>;
  /** Saves the index and stops watching, leaving the provider open (closing the provider does both). */
  close(): void;
}

/**
 * `provider` with a `searchTree` answered from a trigram index kept in `options.directory`. Every
 * write through the returned provider is noted and read again before the next search; on a
 * provider with a host directory, changes made by anyone else are watched, and before each search
 * a barrier makes sure every change made before it is seen (see `SearchIndex`). A provider without
 * a host directory is indexed in memory only, and must be written through this wrapper alone.
 * Closing the provider saves the index. The tools keep every rule of their walk over the answer,
 * so the index can only spare reads of files that cannot match.
 */
export function withSearchIndex(provider: FileSystemProviderV1, options: SearchIndexOptions): IndexedProvider {
  if (!isAbsolute(options.directory)) {
    throw new LibosError('invalid_arguments', 'The search index directory must be an absolute path.', { effect: 'none' });
  }
  const indexedBytes = options.indexedBytes ?? INDEXED_BYTES;
  const index = new SearchIndex(provider, options.directory, indexedBytes);
  const noting = <Result>(paths: readonly WorkspacePath[], call: Promise<Result>): Promise<Result> =>
    call.finally(() => {
      for (const path of paths) index.noteWritten(path);
    });
  const wrapped = wrapProvider(provider, {
    writeFile: (next, path, bytes, writeOptions) => noting([path], next(path, bytes, writeOptions)),
    appendFile: (next, path, bytes, appendOptions) => noting([path], next(path, bytes, appendOptions)),
    makeDirectory: (next, path, makeOptions) => noting([path], next(path, makeOptions)),
    deleteFile: (next, path, deleteOptions) => noting([path], next(path, deleteOptions)),
    deleteDirectory: (next, path, deleteOptions) => noting([path], next(path, deleteOptions)),
    rename: (next, from, to, renameOptions) => noting([from, to], next(from, to, renameOptions)),
    copyFile: (next, from, to, copyOptions) => noting([to], next(from, to, copyOptions)),
    close: async (next) => {
      try {
        index.close();
      } finally {
        await next();
      }
    },
  });
  const searchTree = async (
    path: WorkspacePath,
    query: Parameters<NonNullable<FileSystemProviderV1['searchTree']>>[1],
  ): Promise<TreeSearchAnswer> => {
    const answer = await index.refresh((tree) => answerSearch(tree, path, query, indexedBytes));
    if (answer !== undefined) return answer;
    // Not a directory the index holds in full: the provider's own answer, or its listing's refusal.
    if (provider.searchTree !== undefined) return provider.searchTree(path, query);
    await provider.listDirectory(path, { limit: 1, signal: query.signal });
    return { complete: false, entries: [] };
  };
  return {
    provider: { ...wrapped, searchTree },
    stats: () => index.stats(),
    async warm() {
      await index.refresh(() => index.save());
    },
    close: () => index.close(),
  };
}
