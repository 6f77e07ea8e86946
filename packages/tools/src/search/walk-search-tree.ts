import { LibosError, isGitAlias, type DirectoryEntry, type Permit, type WorkspacePath } from '@libos/core';
import type { ToolContext } from '../tool-definition.js';
import type { WalkClock } from './walk-clock.js';

/** The bounds of one walk. */
export interface WalkLimits {
  /** Files the walk may try to read. */
  readonly maxFiles: number;
  /** Entries (of any kind) the walk may list in all; keeps time and memory bounded by the bounds. */
  readonly maxEntries: number;
  /** Which files (by path below the root) are worth reading at all; the others cost no read. */
  readonly wanted: (relativePath: string) => boolean;
}

/** What the walk hands over for each regular file it may read. */
export interface WalkedFile {
  readonly path: WorkspacePath;
  /** The path below the search root, for the glob. */
  readonly relativePath: string;
}

// Conditions of an entry that changed or is refused by the provider: the walk passes it by, as if
// it were not there, because a search reports what it could read and nothing else.
const PASSED_BY = ['not_found', 'not_a_directory', 'not_a_file', 'symlink_refused', 'hard_link_refused', 'changed_during_operation'] as const;

/**
 * Walks the tree under `root` depth first in code-point order of names, entering only directories
 * the permit covers for reading (never a link, a mount point, which the provider refuses like one,
 * or a `.git` alias) and offering `visit` only regular files the permit covers. `visit` returns
 * false to stop. Returns true when a bound, not the end of the tree, stopped the walk.
 */
export async function walkSearchTree(
  context: ToolContext,
  root: WorkspacePath,
  permit: Permit,
  limits: WalkLimits,
  clock: WalkClock,
  visit: (file: WalkedFile) => Promise<boolean>,
): Promise<boolean> {
  let entriesLeft = limits.maxEntries;
  let filesLeft = limits.maxFiles;
  let cut = false;
  const list = async (directory: WorkspacePath): Promise<readonly DirectoryEntry[]> => {
    // One more than the budget, so a directory that ends exactly at the budget is not called cut.
    const limit = Math.max(1, Math.min(context.bounds.list_limit_max, entriesLeft + 1));
    const listing = await clock.race(context.provider.listDirectory(directory, { limit, signal: clock.signal }));
    const entries = listing.entries.slice(0, entriesLeft);
    entriesLeft -= entries.length;
    if (listing.truncated || entries.length < listing.entries.length) cut = true;
    return entries;
  };
  const prefix = root === '.' ? '' : `${root}/`;
  // The root was authorized by the call itself; its own failures (not_found, not_a_directory,
  // symlink_refused) are the call's answer.
  const stack: { entries: readonly DirectoryEntry[]; next: number }[] = [{ entries: await list(root), next: 0 }];
  while (stack.length > 0) {
    await clock.breathe();
    const frame = stack[stack.length - 1]!;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const { path } = entry;
    if (isGitAlias(entry.name)) continue;
    if (entry.kind === 'directory') {
      if (!permit.covers('read', path, 'directory')) continue;
      if (entriesLeft === 0) return true;
      const entries = await passBy(() => list(path));
      if (entries !== undefined) stack.push({ entries, next: 0 });
      continue;
    }
    if (entry.kind !== 'file' || !permit.covers('read', path, 'file')) continue;
    const relativePath = path.slice(prefix.length);
    if (!limits.wanted(relativePath)) continue;
    if (filesLeft === 0) return true;
    filesLeft--;
    if (!(await visit({ path, relativePath }))) return true;
  }
  return cut;
}

/** Runs a step on an entry that may have changed since it was listed; a refused or vanished one is skipped. */
export async function passBy<Result>(step: () => Promise<Result>): Promise<Result | undefined> {
  try {
    return await step();
  } catch (error) {
    if (LibosError.is(error, ...PASSED_BY)) return undefined;
    throw error;
  }
}
