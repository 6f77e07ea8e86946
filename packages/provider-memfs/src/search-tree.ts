import { Buffer } from 'node:buffer';
import { LibosError, isGitAlias, type TreeSearchAnswer, type TreeSearchEntry, type TreeSearchQuery, type WorkspacePath } from '@libos/core';
import { listDirectory } from './list-directory.js';
import { readFile } from './read-file.js';
import type { Workspace } from './resolve-path.js';

/**
 * The tree below `path` with its candidates marked (core's `TreeSearchQuery`), built from this
 * provider's own listings and reads in one synchronous block: nothing changes while it runs, so
 * the answer is one snapshot. A file that its own read refuses (a hard link) is a candidate
 * without bytes, so the walk's read meets the same refusal.
 */
export function searchTree(workspace: Workspace, path: WorkspacePath, query: TreeSearchQuery): TreeSearchAnswer {
  const entries: TreeSearchEntry[] = [];
  const directories: WorkspacePath[] = [path];
  let carried = 0;
  for (let directory = directories.pop(); directory !== undefined; directory = directories.pop()) {
    const listing = listDirectory(workspace, directory, { limit: query.maxEntries - entries.length + 1 });
    if (listing.truncated || entries.length + listing.entries.length > query.maxEntries) return { complete: false, entries: [] };
    for (const entry of listing.entries) {
      // A `.git` alias is listed as its parent shows it and never entered: nothing below it is the tools' to see.
      if (entry.kind === 'directory' && !isGitAlias(entry.name)) directories.push(entry.path);
      if (entry.kind !== 'file') {
        entries.push({ ...entry, candidate: false });
        continue;
      }
      let read;
      try {
        read = readFile(workspace, entry.path, { maxBytes: query.maxBytes });
      } catch (error) {
        if (!LibosError.is(error)) throw error;
        entries.push({ ...entry, candidate: true });
        continue;
      }
      const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
      const candidate = query.alwaysNames.includes(entry.name) || query.needles.every((needle) => bytes.indexOf(needle) !== -1);
      const carry = candidate && carried + read.bytes.length <= query.maxCarriedBytes;
      if (carry) carried += read.bytes.length;
      entries.push(carry ? { ...entry, candidate, read } : { ...entry, candidate });
    }
  }
  return { complete: true, entries };
}
