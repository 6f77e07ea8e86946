import { compareCodePoints, type DirectoryEntry, type DirectoryListing, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import type { RowHead, RowStatements } from '../state/entry-rows.js';

/** A listed entry for an overlay row (never a whiteout). */
export function entryOfRow(row: RowHead): DirectoryEntry {
  return {
    name: row.name,
    path: row.path,
    kind: row.kind === 'file' ? 'file' : 'directory',
    sizeBytes: row.kind === 'file' ? row.size : null,
    modifiedAt: row.modified_at,
  };
}

/** Lists a directory that only the overlay holds: its rows in name order, whiteouts skipped. */
export function listUpperOnly(rows: RowStatements, path: WorkspacePath, limit: number): DirectoryListing {
  const entries: DirectoryEntry[] = [];
  for (const row of rows.children(path)) {
    if (row.kind === 'whiteout') continue;
    if (entries.length === limit) return { entries, truncated: true };
    entries.push(entryOfRow(row));
  }
  return { entries, truncated: false };
}

/**
 * Merges the lower's listing with the overlay's rows under `path`: rows replace lower entries of the
 * same name, whiteouts hide them. The lower is asked for its first `want` names; when hidden names
 * leave fewer than `limit + 1` survivors among them, `want` doubles and the lower is asked again, so
 * memory stays O(limit + names hidden among the first ones) and the lower's own O(limit) holds.
 */
export async function listMerged(
  lower: FileSystemProviderV1,
  rows: RowStatements,
  path: WorkspacePath,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<DirectoryListing> {
  let want = limit + 1;
  for (;;) {
    const listing = await lower.listDirectory(path, { limit: want, ...(signal === undefined ? {} : { signal }) });
    const last = listing.entries.at(-1)?.name;
    // Past the last lower name we saw, the lower may hold names we have not seen: stop there.
    const bound = listing.truncated ? last : undefined;
    const merged = mergeUpTo(listing.entries, rows.children(path), bound, limit + 1);
    if (bound === undefined || merged.length > limit) return { entries: merged.slice(0, limit), truncated: merged.length > limit };
    want *= 2;
  }
}

function mergeUpTo(
  lowerEntries: readonly DirectoryEntry[],
  upper: IterableIterator<RowHead>,
  bound: string | undefined,
  most: number,
): DirectoryEntry[] {
  const merged: DirectoryEntry[] = [];
  let index = 0;
  try {
    for (const row of upper) {
      if (bound !== undefined && compareCodePoints(row.name, bound) > 0) break;
      while (index < lowerEntries.length && merged.length < most && compareCodePoints((lowerEntries[index] as DirectoryEntry).name, row.name) < 0) {
        merged.push(lowerEntries[index] as DirectoryEntry);
        index++;
      }
      if (merged.length >= most) return merged;
      if (index < lowerEntries.length && (lowerEntries[index] as DirectoryEntry).name === row.name) index++;
      if (row.kind !== 'whiteout') merged.push(entryOfRow(row));
    }
  } finally {
    upper.return?.();
  }
  while (index < lowerEntries.length && merged.length < most) merged.push(lowerEntries[index++] as DirectoryEntry);
  return merged;
}
