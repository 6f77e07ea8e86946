import { isGitAlias, type DirectoryEntry, type TreeSearchAnswer, type TreeSearchEntry, type TreeSearchQuery, type WorkspacePath } from '@libos/core';
import { mayHold, needleHashes } from './trigram-filter.js';
import type { TreeState } from './tree-state.js';

/**
 * The `searchTree` answer for `path` from the index alone (the caller has brought it up to date):
 * every entry below `path` as its directory's listing showed it, and as candidates the regular
 * files whose filter may hold every trigram of every needle, plus those the filter cannot speak
 * for: a read the provider refused, bytes past the indexed start that the query reads, a name in
 * `alwaysNames`. No bytes are carried: the tools read each candidate from the provider, fresh.
 * Undefined when `path` is not a directory the index holds in full.
 */
export function answerSearch(state: TreeState, path: WorkspacePath, query: TreeSearchQuery, indexedBytes: number): TreeSearchAnswer | undefined {
  if (!state.directories.has(path)) return undefined;
  const hashes = needleHashes([...query.needles, ...(query.foldedNeedles ?? [])]);
  const readsPast = query.maxBytes > indexedBytes;
  const entries: TreeSearchEntry[] = [];
  const pending: WorkspacePath[] = [path];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    const listing = state.directories.get(directory);
    if (listing === undefined || state.truncated.has(directory)) return { complete: false, entries: [] };
    if (entries.length + listing.size > query.maxEntries) return { complete: false, entries: [] };
    for (const entry of listing.values()) {
      if (entry.kind !== 'file') {
        entries.push(answered(entry, false));
        // A directory the provider would not list is in the listing and never entered.
        if (entry.kind === 'directory' && !isGitAlias(entry.name) && state.directories.has(entry.path)) pending.push(entry.path);
        continue;
      }
      const file = state.files.get(entry.path);
      const candidate =
        file === undefined ||
        file.filter === null ||
        (file.truncated && readsPast) ||
        query.alwaysNames.includes(entry.name) ||
        mayHold(file.filter, hashes);
      entries.push(answered(entry, candidate));
    }
  }
  return { complete: true, entries };
}

// Each listed entry's two answers, made once: a warm search of a large tree would otherwise copy
// every entry of it, every time.
const answers = new WeakMap<DirectoryEntry, readonly [TreeSearchEntry, TreeSearchEntry]>();

function answered(entry: DirectoryEntry, candidate: boolean): TreeSearchEntry {
  let pair = answers.get(entry);
  if (pair === undefined) {
    const { name, path, kind, sizeBytes, modifiedAt } = entry;
    pair = [
      // Frozen: shared by every answer, so no reader may change one for the next.
      Object.freeze({ name, path, kind, sizeBytes, modifiedAt, candidate: false }),
      Object.freeze({ name, path, kind, sizeBytes, modifiedAt, candidate: true }),
    ];
    answers.set(entry, pair);
  }
  return pair[candidate ? 1 : 0];
}
