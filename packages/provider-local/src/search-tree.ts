import { closeSync, openSync } from 'node:fs';
import { childPath, pathSegments } from '@libos/core';
import type { TreeSearchAnswer, TreeSearchQuery, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { type DescribeState, describeEntry, foldedStrings } from './describe-entry.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { shownName } from './listed-names.js';
import { scanNames } from './list-directory.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { isOtherMount } from './mount-id.js';
import { type MountRoots, mountRoots, readMountTable } from './mount-roots.js';
import { type OperationContext, stepped } from './operation-context.js';
import { isReservedName } from './reserved-names.js';
import { searchInThreads } from './search-in-threads.js';
import { ThreadFailure, searchThreadsAvailable } from './search-threads.js';
import { type HeldDirectory, holdDirectory, walk } from './walk.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

export { TABLE_AFTER_FILES } from './describe-entry.js';

/** Thrown inside the search once the tree has more entries than the query allows. */
const TOO_MANY = Symbol('too many entries');

/** One search on the calling thread: its answer so far, and the mounts' table once read. */
interface Search extends DescribeState {
  readonly context: OperationContext;
  table: MountRoots | null | undefined;
  sinceYield: number;
}

/**
 * `searchTree` of the local provider: the tree below `path`, every name pinned by one
 * O_PATH|O_NOFOLLOW probe and every regular file read as `readFile` would (`describeEntry`). The
 * directories are scanned by the process's search threads (`searchInThreads`: several cores, in
 * turn with every other search) when they can run, else depth first on the calling thread, each
 * directory's names described inside it with a borrowed working directory when the provider may
 * borrow one (`FdPaths.within`); a provider with testing hooks always searches on the calling
 * thread, where its hooks run. A link, a mount point, a `.git` alias or an undecodable directory
 * name is listed and never entered.
 */
export async function searchTree(context: OperationContext, path: WorkspacePath, query: TreeSearchQuery): Promise<TreeSearchAnswer> {
  let threaded = searchThreadsAvailable() && Object.keys(context.hooks).length === 0;
  const run = (mounts: MountRoots | null | undefined) =>
    threaded ? searchInThreads(context, path, query, mounts ?? null) : searchHere(context, path, query, mounts === undefined ? undefined : null);
  // Threads know the mounts' roots from the start; the calling thread reads them after a few files.
  const first = threaded ? mountRoots(context.root.mountId) : undefined;
  const { answer, mounts } = await run(first).catch((error: unknown) => {
    if (!(error instanceof ThreadFailure)) throw error;
    threaded = false;
    return run(undefined);
  });
  // A mount made or removed while the search ran could stand on a name the table from before let
  // through: the answer is dropped and the search made again, each file's own mount id read.
  if (mounts && readMountTable() !== mounts.table) return (await run(null)).answer;
  return answer;
}

async function searchHere(
  context: OperationContext,
  path: WorkspacePath,
  query: TreeSearchQuery,
  mounts: null | undefined,
): Promise<{ answer: TreeSearchAnswer; mounts: MountRoots | null | undefined }> {
  const { directory } = walk(context, pathSegments(path));
  const search: Search = {
    context,
    fdPath: (fd) => context.paths.of(fd),
    rootDev: context.root.dev,
    rootMountId: context.root.mountId,
    mounts,
    table: mounts,
    loadMounts: () => (search.table = mountRoots(context.root.mountId)),
    checked: 0,
    needles: query.needles,
    foldedNeedles: foldedStrings(query.foldedNeedles),
    alwaysNames: query.alwaysNames,
    maxBytes: query.maxBytes,
    maxCarriedBytes: query.maxCarriedBytes,
    carried: 0,
    scratch: Buffer.allocUnsafeSlow(query.maxBytes + 1),
    entries: [],
    sinceYield: 0,
  };
  try {
    await searchDirectory(search, query, directory);
  } catch (error) {
    if (error === TOO_MANY) return { answer: { complete: false, entries: [] }, mounts: search.table };
    throw error;
  } finally {
    directory.release();
  }
  return { answer: { complete: true, entries: search.entries }, mounts: search.table };
}

async function searchDirectory(search: Search, query: TreeSearchQuery, held: HeldDirectory): Promise<void> {
  const { context, entries } = search;
  const names: string[] = [];
  await scanNames(context, held.fd, held.path, (raw) => {
    // The staging directory (and everything of a write in progress) is never listed.
    if (!isReservedName(raw)) names.push(raw);
  });
  if (entries.length + names.length > query.maxEntries) throw TOO_MANY;
  const below = context.paths.within(held.fd, (nameIn) => names.filter((raw) => describeEntry(search, held.path, raw, nameIn)));
  search.sinceYield += names.length;
  if (search.sinceYield >= ENTRIES_PER_SLICE) {
    search.sinceYield = 0;
    await yieldNow();
  }
  checkSignal(context.signal, held.path);
  for (const raw of below) {
    const path = childPath(held.path, shownName(raw));
    const child = enter(context, held.fd, raw, path);
    if (child === null) continue;
    try {
      await searchDirectory(search, query, child);
    } finally {
      child.release();
    }
  }
}

// Holds a directory listed below `parentFd`, as `walk` would: no link followed, no other mount
// entered. One swapped for a link or a file since its probe, or gone, is left unentered.
function enter(context: OperationContext, parentFd: number, raw: string, path: WorkspacePath): HeldDirectory | null {
  let fd: number;
  try {
    fd = openSync(context.paths.child(parentFd, raw), DIRECTORY_HANDLE);
  } catch (error) {
    const code = hostCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
    throw mapNodeError(error, path);
  }
  if (isOtherMount(context, fd)) {
    closeSync(fd);
    return null;
  }
  const held = holdDirectory(fd, path);
  stepped(context, path);
  return held;
}
