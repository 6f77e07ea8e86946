import { closeSync, fstatSync, openSync } from 'node:fs';
import { PATH_MAX_BYTES, childPath, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { SmallestItems, checkSignal } from '@libos/provider-kit';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { isProtectedName } from './is-protected-name.js';
import { scanNames } from './list-directory.js';
import type { ByteString } from './listed-names.js';
import { shownName } from './listed-names.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import type { OperationContext } from './operation-context.js';

// A canonical path of at most PATH_MAX_BYTES (core's bound on every path the tools make) has at
// most 2048 components, so every tree the tools can build is within reach; each level holds two fds.
export const MAX_DEPTH = Math.ceil(PATH_MAX_BYTES / 2);
// What the names a pre-scan keeps may cost, whatever the tree: at most this many names and this many
// bytes of them (a name is one char per byte), a few MiB of heap in all.
const KEPT_NAMES = 131_072;
const KEPT_BYTES = 4 * 1024 * 1024;
/**
 * The most subdirectory names of one directory held at once, by the pre-scan and by each pass of the
 * delete: a directory with more is taken in batches, so memory stays bounded whatever it holds.
 */
export const DIRECTORIES_PER_BATCH = 65_536;

/** The batch of subdirectory names a recursive delete holds (a testing hook may make it smaller). */
export function directoriesPerBatch(context: OperationContext): number {
  return context.hooks.directoriesPerBatch ?? DIRECTORIES_PER_BATCH;
}

/** The identity of a directory: a listing kept for it is used only by a handle on the same inode. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** The names the pre-scan read in one directory: its non-directories and its directories. */
export interface KeptListing {
  readonly files: ByteString[];
  readonly directories: ByteString[];
}

/**
 * The listings the pre-scan read, kept (within a fixed bound) so that the delete's first pass over a
 * directory need not read it again. A listing only saves a read: the delete still removes a
 * directory only once rmdir finds it empty, and a directory that is not gets read for real.
 */
export class KeptListings {
  readonly #listings = new Map<string, KeptListing>();
  #names = KEPT_NAMES;
  #bytes = KEPT_BYTES;

  /** Takes up room for one more name; false (keeping nothing) once the bound is reached. */
  reserve(raw: ByteString): boolean {
    if (this.#names === 0 || this.#bytes < raw.length) return false;
    this.#names--;
    this.#bytes -= raw.length;
    return true;
  }

  /** Gives back the room of names that end up not kept. */
  release(names: readonly ByteString[]): void {
    this.#names += names.length;
    for (const raw of names) this.#bytes += raw.length;
  }

  keep(identity: DirectoryIdentity, listing: KeptListing): void {
    this.#listings.set(key(identity), listing);
  }

  /** The listing kept for this directory, once: a second pass reads the directory itself. */
  take(identity: DirectoryIdentity): KeptListing | undefined {
    const listing = this.#listings.get(key(identity));
    this.#listings.delete(key(identity));
    return listing;
  }
}

function key({ dev, ino }: DirectoryIdentity): string {
  return `${dev}:${ino}`;
}

/**
 * Refuses, before anything is deleted, a tree holding a `.git` alias or a mount point (told by its
 * mount id, bind mounts of the same filesystem included) at any depth, keeping into `kept` the names
 * it read while there is room. Directories are entered by handles opened with O_NOFOLLOW relative to
 * their parent.
 */
export async function findProtected(
  context: OperationContext,
  fd: number,
  identity: DirectoryIdentity,
  path: WorkspacePath,
  kept: KeptListings,
  depth = 0,
): Promise<void> {
  if (depth > MAX_DEPTH) throw providerErrors.tooDeep(path, MAX_DEPTH);
  const files: ByteString[] = [];
  // The directory names reserved while keeping: all of them while the batch has not overflowed.
  const reservedDirectories: ByteString[] = [];
  let batch = new SmallestItems<ByteString>(directoriesPerBatch(context), compareBytes);
  let keeping = true;
  await scanNames(context, fd, path, (raw, isDirectory) => {
    refuseProtected(path, raw);
    if (isDirectory) batch.offer(raw);
    if (!keeping) return;
    // A directory too big to keep whole (too many names, or more subdirectories than a batch) is not kept at all.
    if (batch.overflowed || !kept.reserve(raw)) {
      keeping = false;
      kept.release(files);
      kept.release(reservedDirectories);
      files.length = 0;
      reservedDirectories.length = 0;
      return;
    }
    (isDirectory ? reservedDirectories : files).push(raw);
  });
  let directories = batch.sorted();
  if (keeping) kept.keep(identity, { files, directories });
  for (;;) {
    await scanDirectories(context, fd, path, directories, kept, depth);
    if (!batch.overflowed) return;
    // The next batch: the smallest names after this one's last, read again (checked again too).
    const after = directories[directories.length - 1]!;
    batch = new SmallestItems<ByteString>(directoriesPerBatch(context), compareBytes);
    const next = batch;
    await scanNames(context, fd, path, (raw, isDirectory) => {
      refuseProtected(path, raw);
      if (isDirectory && raw > after) next.offer(raw);
    });
    directories = batch.sorted();
    if (directories.length === 0) return;
  }
}

async function scanDirectories(
  context: OperationContext,
  fd: number,
  path: WorkspacePath,
  directories: readonly ByteString[],
  kept: KeptListings,
  depth: number,
): Promise<void> {
  for (const raw of directories) {
    const childPathName = childPath(path, shownName(raw));
    checkSignal(context.signal, path);
    const child = openChildOrNull(context, fd, raw, childPathName);
    if (child === null) continue;
    try {
      refuseOtherMount(context, child, childPathName, 'none');
      const { dev, ino } = fstatSync(child);
      await findProtected(context, child, { dev, ino }, childPathName, kept, depth + 1);
    } finally {
      closeSync(child);
    }
  }
}

// Gone, or no longer a directory, since the scan: nothing of it to refuse.
function openChildOrNull(context: OperationContext, parentFd: number, raw: ByteString, path: WorkspacePath): number | null {
  try {
    return openSync(context.paths.child(parentFd, raw), DIRECTORY_HANDLE);
  } catch (error) {
    const code = hostCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return null;
    throw mapNodeError(error, path);
  }
}

// Byte strings order by their bytes: one char per byte.
function compareBytes(left: ByteString, right: ByteString): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

// A `.git` alias anywhere in the tree refuses the whole delete before anything changes.
function refuseProtected(path: WorkspacePath, raw: ByteString): void {
  if (isProtectedName(shownName(raw))) throw providerErrors.protectedPath(path, childPath(path, shownName(raw)));
}
