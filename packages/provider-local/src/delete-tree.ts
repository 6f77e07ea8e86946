import { closeSync, fstatSync, lstatSync, opendirSync, openSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Dir } from 'node:fs';
import { childPath, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { MAX_DEPTH, directoriesPerBatch } from './delete-scan.js';
import type { KeptListing, KeptListings } from './delete-scan.js';
import type { NameIn } from './fd-paths.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { isProtectedName } from './is-protected-name.js';
import { shownName } from './listed-names.js';
import type { ByteString } from './listed-names.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

// A directory still not empty after this many sweeps is being refilled by someone else.
const MAX_SWEEPS = 4;
// Passes of a full batch of subdirectories each: a directory of up to 67 million of them is deleted whole.
const MAX_BATCHES = 1024;

/** A directory held for deletion: its handle, its identity, and the name that holds it. */
export interface HeldTree {
  readonly parentFd: number;
  readonly raw: ByteString;
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  readonly path: WorkspacePath;
}

/**
 * Deletes a held directory bottom-up by names relative to pinned directories only: entries that are
 * not directories (links included) are unlinked without being followed; a subdirectory is entered
 * by a fresh O_NOFOLLOW handle and removed only while its name still holds the inode that was
 * emptied. Every name is looked up inside a `within` window of the directory that holds it. The
 * first pass over a directory uses the names the pre-scan kept for that very inode, if any; rmdir
 * then tells whether anything is left (added since, or never kept), and the sweeps read it for real.
 */
export async function deleteTree(context: OperationContext, tree: HeldTree, kept: KeptListings, depth = 0): Promise<void> {
  if (depth > MAX_DEPTH) throw providerErrors.tooDeep(tree.path, MAX_DEPTH, { effect: 'unknown' });
  const listing = kept.take(tree);
  if (listing !== undefined) {
    await deleteDirectories(context, tree, kept, depth, await unlinkKept(context, tree, listing));
    if (removeEmptied(context, tree)) return;
  }
  for (let sweep = 0, batches = 0; sweep < MAX_SWEEPS; ) {
    const directories = await unlinkListed(context, tree);
    await deleteDirectories(context, tree, kept, depth, directories);
    // A full batch of subdirectories means more may be left: the next pass takes them, uncounted.
    if (directories.length >= directoriesPerBatch(context) && ++batches <= MAX_BATCHES) continue;
    if (removeEmptied(context, tree)) return;
    sweep++;
  }
  throw providerErrors.changedDuringOperation(tree.path, { effect: 'unknown' });
}

async function deleteDirectories(
  context: OperationContext,
  tree: HeldTree,
  kept: KeptListings,
  depth: number,
  directories: readonly ByteString[],
): Promise<void> {
  let handled = 0;
  for (const raw of directories) {
    const path = childPath(tree.path, shownName(raw));
    // Entries are already gone, so a cancelled delete stops with effect unknown, the rest left in place.
    checkSignal(context.signal, tree.path, 'unknown');
    const fd = context.paths.within(tree.fd, (nameIn) => enterOrUnlink(nameIn, raw, tree.path, path));
    if (fd === null) continue;
    try {
      refuseOtherMount(context, fd, path, 'unknown');
      const held = fstatSync(fd);
      stepped(context, path);
      await deleteTree(context, { parentFd: tree.fd, raw, fd, dev: held.dev, ino: held.ino, path }, kept, depth + 1);
    } finally {
      closeSync(fd);
    }
    if (++handled % ENTRIES_PER_SLICE === 0) await yieldNow();
  }
}

/**
 * Unlinks the non-directories the pre-scan kept for this directory, a slice per synchronous
 * `within` window; returns the directories to enter (the kept ones, and any name found to be one).
 */
async function unlinkKept(context: OperationContext, tree: HeldTree, listing: KeptListing): Promise<ByteString[]> {
  const { files, directories } = listing;
  for (let start = 0; start < files.length; start += ENTRIES_PER_SLICE) {
    if (start > 0) {
      await yieldNow();
      checkSignal(context.signal, tree.path, 'unknown');
    }
    const end = Math.min(files.length, start + ENTRIES_PER_SLICE);
    context.paths.within(tree.fd, (nameIn) => {
      for (let index = start; index < end; index++) {
        if (!unlinkEntry(nameIn, files[index]!, tree.path)) directories.push(files[index]!);
      }
    });
  }
  return directories;
}

/**
 * One pass over the names the held directory lists now: unlinks every entry that is not a directory
 * and returns the names of the directories. Each slice of names runs in one synchronous `within`
 * window; the event loop and the signal get their turn between two slices.
 */
async function unlinkListed(context: OperationContext, tree: HeldTree): Promise<ByteString[]> {
  const directories: ByteString[] = [];
  let handle: Dir;
  try {
    // Byte strings, as in scanNames: a name must reach unlink exactly as the kernel listed it.
    handle = opendirSync(context.paths.of(tree.fd), { encoding: 'latin1', bufferSize: 1024 });
  } catch (error) {
    throw mapNodeError(error, tree.path, 'unknown');
  }
  try {
    const batch = directoriesPerBatch(context);
    while (context.paths.within(tree.fd, (nameIn) => unlinkSlice(handle, nameIn, tree, directories, batch))) {
      await yieldNow();
      checkSignal(context.signal, tree.path, 'unknown');
    }
  } catch (error) {
    throw mapNodeError(error, tree.path, 'unknown');
  } finally {
    handle.closeSync();
  }
  return directories;
}

// True when the slice ended before the listing did.
function unlinkSlice(handle: Dir, nameIn: NameIn, tree: HeldTree, directories: ByteString[], batch: number): boolean {
  for (let seen = 0; seen < ENTRIES_PER_SLICE; seen++) {
    const entry = handle.readSync();
    if (entry === null) return false;
    const raw = entry.name;
    if (isProtectedName(shownName(raw))) throw providerErrors.protectedPath(tree.path, childPath(tree.path, shownName(raw)), { effect: 'unknown' });
    // Past a batch, a subdirectory is left for the next pass: one pass never holds more names.
    if ((entry.isDirectory() || !unlinkEntry(nameIn, raw, tree.path)) && directories.length < batch) directories.push(raw);
  }
  return true;
}

// A fresh handle on the subdirectory `raw`; null when the name no longer holds a directory (swapped
// for something else since it was read), which is then unlinked as what it now is. Its EPERM is the
// host refusing, e.g. an immutable file, not the POSIX answer for a directory.
function enterOrUnlink(nameIn: NameIn, raw: ByteString, parentPath: WorkspacePath, path: WorkspacePath): number | null {
  let fd: number;
  try {
    fd = openSync(nameIn(raw), DIRECTORY_HANDLE);
  } catch (error) {
    const code = hostCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') throw mapNodeError(error, path, 'unknown');
    unlinkEntry(nameIn, raw, parentPath, false);
    return null;
  }
  return fd;
}

/**
 * Unlinks a non-directory entry of `parentPath`; false when the entry is a directory after all
 * (EISDIR, or EPERM, POSIX's answer for one, unless the caller knows the entry is no directory).
 */
function unlinkEntry(nameIn: NameIn, raw: ByteString, parentPath: WorkspacePath, mayBeDirectory = true): boolean {
  try {
    unlinkSync(nameIn(raw));
    return true;
  } catch (error) {
    const code = hostCode(error);
    if (code === 'ENOENT') return true;
    if (code === 'EISDIR' || (code === 'EPERM' && mayBeDirectory)) return false;
    throw mapNodeError(error, childPath(parentPath, shownName(raw)), 'unknown');
  }
}

/** rmdir by name once the name is verified to hold the emptied inode; false when it is not empty. */
function removeEmptied(context: OperationContext, tree: HeldTree): boolean {
  return context.paths.within(tree.parentFd, (nameIn) => {
    const target = nameIn(tree.raw);
    try {
      const now = lstatSync(target);
      if (now.dev !== tree.dev || now.ino !== tree.ino) {
        throw providerErrors.changedDuringOperation(tree.path, { effect: 'unknown' });
      }
      rmdirSync(target);
      return true;
    } catch (error) {
      const code = hostCode(error);
      if (code === 'ENOENT') return true;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
      throw mapNodeError(error, tree.path, 'unknown');
    }
  });
}
