import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { childPath, pathSegments } from '@libos/core';
import type { FileRead, TreeSearchAnswer, TreeSearchEntry, TreeSearchQuery, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { entryKind } from './entry-kind.js';
import type { NameIn } from './fd-paths.js';
import { DIRECTORY_HANDLE, REOPEN_FILE } from './host-flags.js';
import { isProtectedName } from './is-protected-name.js';
import { isAscii, shownName } from './listed-names.js';
import { scanNames } from './list-directory.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { modifiedAt } from './modified-at.js';
import { isOtherMount } from './mount-id.js';
import { type MountRoots, identityOf, mountRoots, readMountTable } from './mount-roots.js';
import { type OperationContext, stepped } from './operation-context.js';
import { isStillSoleName, probeHostName } from './probe-entry.js';
import { isReservedName } from './reserved-names.js';
import { type HeldDirectory, holdDirectory, walk } from './walk.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

/** One search's running state: its answer so far and the buffer every file's start is read into. */
interface Search {
  readonly context: OperationContext;
  readonly query: TreeSearchQuery;
  readonly entries: TreeSearchEntry[];
  readonly scratch: Buffer;
  /**
   * The table of mounts, read once the search has checked `TABLE_AFTER_FILES` files by their own
   * mount ids (a small search costs less that way); null: never read, each file's own mount id is.
   */
  mounts: MountRoots | null | undefined;
  /** Files checked by their own mount ids so far. */
  checked: number;
  carried: number;
  sinceYield: number;
}

/** Files a search checks by their own mount ids before it reads the table of mounts (see onOtherMount). */
export const TABLE_AFTER_FILES = 64;

/** Thrown inside the search once the tree has more entries than the query allows. */
const TOO_MANY = Symbol('too many entries');

/**
 * `searchTree` of the local provider: the tree below `path` walked depth first, one O_PATH handle
 * per level held (as `walk` holds them), each directory's names streamed once and described inside
 * it with a borrowed working directory when the provider may borrow one (`FdPaths.within`). Every
 * name is pinned by one O_PATH|O_NOFOLLOW probe whose fstat is both the listing's lstat and the
 * read's checks; a regular file is then read exactly as `readFile` would (mount check, reopen of
 * the held inode through its magic link) into one reused buffer, and carried only when a candidate.
 * What `readFile` would refuse (a second link, another mount, a `.git` alias, a name that is not
 * UTF-8, any host refusal) is a candidate without bytes, so the tools' own read meets the refusal.
 * A link, a mount point, a `.git` alias or an undecodable directory name is listed and never entered.
 */
export async function searchTree(context: OperationContext, path: WorkspacePath, query: TreeSearchQuery): Promise<TreeSearchAnswer> {
  const { answer, mounts } = await searchWith(context, path, query, undefined);
  // A mount made or removed while the search ran could stand on a name the table from before let
  // through: the answer is dropped and the search made again, each file's own mount id read.
  if (mounts && readMountTable() !== mounts.table) return (await searchWith(context, path, query, null)).answer;
  return answer;
}

async function searchWith(
  context: OperationContext,
  path: WorkspacePath,
  query: TreeSearchQuery,
  mounts: null | undefined,
): Promise<{ answer: TreeSearchAnswer; mounts: MountRoots | null | undefined }> {
  const { directory } = walk(context, pathSegments(path));
  const scratch = Buffer.allocUnsafeSlow(query.maxBytes + 1);
  const search: Search = { context, query, entries: [], scratch, mounts, checked: 0, carried: 0, sinceYield: 0 };
  try {
    await searchDirectory(search, directory);
  } catch (error) {
    if (error === TOO_MANY) return { answer: { complete: false, entries: [] }, mounts: search.mounts };
    throw error;
  } finally {
    directory.release();
  }
  return { answer: { complete: true, entries: search.entries }, mounts: search.mounts };
}

async function searchDirectory(search: Search, held: HeldDirectory): Promise<void> {
  const { context, entries, query } = search;
  const names: string[] = [];
  await scanNames(context, held.fd, held.path, (raw) => {
    // The staging directory (and everything of a write in progress) is never listed.
    if (!isReservedName(raw)) names.push(raw);
  });
  if (entries.length + names.length > query.maxEntries) throw TOO_MANY;
  const below = context.paths.within(held.fd, (nameIn) => names.filter((raw) => describe(search, held.path, raw, nameIn)));
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
      await searchDirectory(search, child);
    } finally {
      child.release();
    }
  }
}

// Adds the entry `raw` names to the answer; true for a directory to enter afterwards.
function describe(search: Search, parent: WorkspacePath, raw: string, nameIn: NameIn): boolean {
  const name = shownName(raw);
  const path = childPath(parent, name);
  const hostName = nameIn(raw);
  const probe = probeHostName(hostName, path);
  // A name deleted since the scan is left out, as a listing leaves it out.
  if (probe === null) return false;
  try {
    const { status } = probe;
    const kind = entryKind(status);
    const listed = { name, path, kind, sizeBytes: kind === 'file' ? status.size : null, modifiedAt: modifiedAt(status) };
    // A name that is not UTF-8 is shown with U+FFFD, and no path reaches its bytes.
    const reachable = (isAscii(raw) || Buffer.from(name, 'utf8').toString('latin1') === raw) && !isProtectedName(name);
    if (kind !== 'file') {
      search.entries.push({ ...listed, candidate: false });
      return kind === 'directory' && reachable;
    }
    // Without needles every file is a candidate: once the carried budget is spent, reading one
    // here would only read it twice (the tools read it anyway).
    const worth = search.query.needles.length > 0 || search.carried < search.query.maxCarriedBytes;
    const single = worth && reachable && status.nlink === 1 && !onOtherMount(search, probe.fd, status);
    const read = single ? readHeld(search, probe.fd) : null;
    // As readFile: the name must still be the inode's only one once its bytes are read.
    if (read === null || !isStillSoleName(hostName, probe.fd, status)) {
      search.entries.push({ ...listed, candidate: true });
      return false;
    }
    const { query } = search;
    const bytes = search.scratch.subarray(0, read.length);
    const candidate = query.alwaysNames.includes(name) || query.needles.every((needle) => bytes.indexOf(needle) !== -1);
    if (!candidate || search.carried + read.length > query.maxCarriedBytes) {
      search.entries.push({ ...listed, candidate });
      return false;
    }
    search.carried += read.length;
    // Carried bytes get their own buffer: the scratch is the next file's.
    const carried: FileRead = { bytes: new Uint8Array(bytes), truncated: read.truncated };
    search.entries.push({ ...listed, candidate, read: carried });
    return false;
  } finally {
    closeSync(probe.fd);
  }
}

/**
 * Whether the file `fd` holds is on another mount than the root. Its directory is on the root's
 * mount, so it is on another only as the root of a mount stacked on its name: once the search has
 * read the table of mounts, a file on the root's device whose identity is no mount's root is on the root's
 * mount without asking; any other is checked by its own mount id (three system calls).
 */
function onOtherMount(search: Search, fd: number, status: Stats): boolean {
  const { context } = search;
  if (search.mounts === undefined && ++search.checked > TABLE_AFTER_FILES) search.mounts = mountRoots(context.root.mountId);
  const { mounts } = search;
  if (mounts && status.dev === context.root.dev && !mounts.identities.has(identityOf(status))) return false;
  return isOtherMount(context, fd);
}

/**
 * `readPrefix` of the held regular file into the search's scratch buffer: the same reopen of the
 * held inode, the same check of its status on the reopened fd, the same bytes. Null where
 * `readFile` would throw, so the file is answered a candidate without bytes.
 */
function readHeld(search: Search, handle: number): { length: number; truncated: boolean } | null {
  let fd: number;
  try {
    fd = openSync(search.context.paths.of(handle), REOPEN_FILE);
  } catch {
    return null;
  }
  try {
    const status = fstatSync(fd);
    if (!status.isFile() || status.nlink !== 1) return null;
    const { scratch } = search;
    let filled = 0;
    // Short only at the end: once the size the fstat saw is reached, the read of 0 bytes is saved.
    while (filled < scratch.length) {
      const count = readSync(fd, scratch, filled, scratch.length - filled, filled);
      if (count === 0 || (filled += count) === status.size) break;
    }
    const maxBytes = search.query.maxBytes;
    return { length: Math.min(filled, maxBytes), truncated: filled > maxBytes };
  } catch {
    return null;
  } finally {
    closeSync(fd);
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
