import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { LibosError, compareCodePoints, isGitAlias, type DirectoryEntry, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { buildFilter } from './trigram-filter.js';
import type { IndexedFile, TreeState } from './tree-state.js';

/** The most entries one directory's listing may hold in the index; past it, searches below it walk. */
const LIST_LIMIT = 100_000;

/**
 * A file whose change time is this close to the moment it was read may have changed again within
 * the same clock tick without its stamp showing it (git's "racy" entries): it is read again.
 */
const RACY_MS = 1_000;

/** What a scan works with. */
export interface ScanContext {
  readonly provider: FileSystemProviderV1;
  readonly state: TreeState;
  /** Bytes of each file's start that are indexed. */
  readonly maxBytes: number;
  /** Called before a directory is listed (so a change during the listing is seen); its host directory, if any. */
  readonly beforeListing: (path: WorkspacePath) => string | undefined;
  /** Called for every directory the index stops holding. */
  readonly afterForget: (paths: readonly WorkspacePath[]) => void;
}

/**
 * Lists `path` again through the provider and brings the index in line with it: entries gone are
 * forgotten, files whose stamp moved (or named in `forced`, or racy) are read again, directories
 * new to the index (or named in `forced`, or every one when `deep`) are scanned the same way.
 * `forced` holds the paths of the entries a change named, or `'all'` when it named none.
 */
export async function scanDirectory(
  context: ScanContext,
  path: WorkspacePath,
  deep: boolean,
  forced: ReadonlySet<WorkspacePath> | 'all' = new Set(),
): Promise<void> {
  const { provider, state } = context;
  const host = context.beforeListing(path);
  let listing;
  try {
    listing = await provider.listDirectory(path, { limit: LIST_LIMIT });
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    // Gone, or not the provider's to list (another mount, a refusal): listed by its parent, never entered.
    context.afterForget(state.forget(path));
    return;
  }
  const before = state.directories.get(path) ?? new Map<string, DirectoryEntry>();
  // Kept in code-point order, the order the tools' walk sorts each directory into: sorting a sorted
  // run costs the walk one comparison per entry.
  const sorted = [...listing.entries].sort((left, right) => compareCodePoints(left.name, right.name));
  const now = new Map(sorted.map((entry) => [entry.name, entry]));
  for (const [name, old] of before) {
    const next = now.get(name);
    if (next === undefined || next.kind !== old.kind) context.afterForget(state.forget(old.path));
  }
  state.directories.set(path, now);
  if (listing.truncated) state.truncated.add(path);
  else state.truncated.delete(path);
  for (const entry of now.values()) {
    const force = forced === 'all' || forced.has(entry.path);
    if (entry.kind === 'file') await indexFile(context, entry, host, force);
    // A directory named by a change may be another one now (renamed over): all of it is checked.
    else if (entry.kind === 'directory' && !isGitAlias(entry.name)) {
      if (deep || force || !state.directories.has(entry.path)) await scanDirectory(context, entry.path, deep || force);
    }
  }
}

async function indexFile(context: ScanContext, entry: DirectoryEntry, host: string | undefined, force: boolean): Promise<void> {
  const { state, provider, maxBytes } = context;
  const { stamp, changedAtMs } = stampOf(entry, host);
  const known = state.files.get(entry.path);
  if (!force && known !== undefined && known.stamp === stamp && known.indexedAtMs - known.changedAtMs > RACY_MS) return;
  const indexedAtMs = Date.now();
  let file: IndexedFile;
  try {
    const read = await provider.readFile(entry.path, { maxBytes });
    file = { stamp, changedAtMs, indexedAtMs, filter: buildFilter(read.bytes), truncated: read.truncated };
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    file = { stamp, changedAtMs, indexedAtMs, filter: null, truncated: true };
  }
  state.files.set(entry.path, file);
}

// The listing's size and time, with the host's inode and nanosecond times where there is a host:
// a rewrite of the same size within the same millisecond still moves the change time.
function stampOf(entry: DirectoryEntry, host: string | undefined): { stamp: string; changedAtMs: number } {
  const listed = `${entry.sizeBytes}|${entry.modifiedAt}`;
  const modifiedMs = Date.parse(entry.modifiedAt);
  if (host === undefined) return { stamp: listed, changedAtMs: modifiedMs };
  try {
    const status = lstatSync(join(host, entry.name), { bigint: true });
    return { stamp: `${listed}|${status.ino}|${status.mtimeNs}|${status.ctimeNs}`, changedAtMs: Number(status.ctimeNs / 1_000_000n) };
  } catch {
    // Unreachable by its shown name (not UTF-8, gone since the listing): never trusted from before.
    return { stamp: `${listed}|?${Math.random()}`, changedAtMs: Date.now() };
  }
}
