import {
  isGitAlias,
  type DirectoryEntry,
  type TreeSearchAnswer,
  type TreeSearchListing,
  type TreeSearchQuery,
  type WorkspacePath,
} from '@libos/core';
import { mayHold, needleHashes } from './trigram-filter.js';
import type { TreeState } from './tree-state.js';

/**
 * The `searchTree` answer for `path` from the index alone (the caller has brought it up to date),
 * by listings: every directory below `path` with its entries as its listing showed them, and as
 * candidates the regular files whose filter may hold every trigram of every needle, plus those the
 * filter cannot speak for: a read the provider refused, bytes past the indexed start that the query
 * reads, a name in `alwaysNames`. No bytes are carried: the tools read each candidate from the
 * provider, fresh. Undefined when `path` is not a directory the index holds in full.
 */
export function answerSearch(state: TreeState, path: WorkspacePath, query: TreeSearchQuery, indexedBytes: number): TreeSearchAnswer | undefined {
  if (!state.directories.has(path)) return undefined;
  const hashes = needleHashes([...query.needles, ...(query.foldedNeedles ?? [])]);
  const readsPast = query.maxBytes > indexedBytes;
  const listings = new Map<WorkspacePath, TreeSearchListing>();
  let answered = 0;
  const pending: WorkspacePath[] = [path];
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    const listing = state.directories.get(directory);
    if (listing === undefined || state.truncated.has(directory)) return { complete: false, entries: [] };
    answered += listing.size;
    if (answered > query.maxEntries) return { complete: false, entries: [] };
    const entries = sortedEntries(listing);
    const candidates = new Set<string>();
    for (const entry of entries) {
      if (entry.kind !== 'file') {
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
      if (candidate) candidates.add(entry.name);
    }
    listings.set(directory, { entries, candidates });
  }
  return { complete: true, entries: [], listings };
}

// Each listing's entries as one frozen array, made once per listing (a rescan replaces the map):
// a warm search of a large tree would otherwise copy every entry of it, every time. The listing
// keeps them in code-point order (scanDirectory), the order the tools check for.
const arrays = new WeakMap<ReadonlyMap<string, DirectoryEntry>, readonly DirectoryEntry[]>();

function sortedEntries(listing: ReadonlyMap<string, DirectoryEntry>): readonly DirectoryEntry[] {
  let entries = arrays.get(listing);
  if (entries === undefined) {
    entries = Object.freeze([...listing.values()].map((entry) => Object.freeze({ ...entry })));
    arrays.set(listing, entries);
  }
  return entries;
}
