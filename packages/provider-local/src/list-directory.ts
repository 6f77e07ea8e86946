import { lstatSync, opendirSync } from 'node:fs';
import type { Dir } from 'node:fs';
import { childPath, pathSegments } from '@libos/core';
import type { DirectoryEntry, DirectoryListing, Effect, ListDirectoryOptions, WorkspacePath } from '@libos/core';
import { SmallestItems, checkSignal } from '@libos/provider-kit';
import { entryKind } from './entry-kind.js';
import { modifiedAt } from './modified-at.js';
import { mapNodeError } from './map-node-error.js';
import type { NameIn } from './fd-paths.js';
import type { OperationContext } from './operation-context.js';
import { compareNames, shownName, sortKey } from './listed-names.js';
import type { ByteString, NameRecord } from './listed-names.js';
import { isReservedName } from './reserved-names.js';
import { walk } from './walk.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

/**
 * Streams the names of one directory through a bounded heap and lstats only the names returned,
 * so the work beyond reading names is O(limit) and so is the memory, whatever the directory holds.
 * Names are read as bytes: one that is not UTF-8 is shown with U+FFFD, never reopened by that text.
 */
export async function listDirectory(context: OperationContext, path: WorkspacePath, options: ListDirectoryOptions): Promise<DirectoryListing> {
  const { directory } = walk(context, pathSegments(path));
  try {
    return await listHeldDirectory(context, directory.fd, path, options);
  } finally {
    directory.release();
  }
}

/** `listDirectory` of the directory `fd` pins, whose identity is `path`. */
export async function listHeldDirectory(
  context: OperationContext,
  fd: number,
  path: WorkspacePath,
  options: ListDirectoryOptions,
): Promise<DirectoryListing> {
  const kept = new SmallestItems<NameRecord>(options.limit, compareNames);
  await scanNames(context, fd, path, (raw) => {
    // The staging directory (and everything of a write in progress) is never listed.
    if (!isReservedName(raw)) kept.offer({ raw, key: sortKey(raw) });
  });
  const entries = context.paths.within(fd, (nameIn) => describe(kept.sorted(), nameIn, path));
  return { entries, truncated: kept.overflowed };
}

// One lstat per returned name, relative to the pinned directory: a name deleted since the scan is
// left out (a listing is a snapshot, and a vanished name is not in it).
function describe(records: readonly NameRecord[], nameIn: NameIn, path: WorkspacePath): DirectoryEntry[] {
  const entries: DirectoryEntry[] = [];
  for (const { raw } of records) {
    let status;
    try {
      status = lstatSync(nameIn(raw), { throwIfNoEntry: false });
    } catch (error) {
      throw mapNodeError(error, path);
    }
    if (status === undefined) continue;
    const name = shownName(raw);
    const kind = entryKind(status);
    entries.push({
      name,
      path: childPath(path, name),
      kind,
      sizeBytes: kind === 'file' ? status.size : null,
      modifiedAt: modifiedAt(status),
    });
  }
  return entries;
}

/**
 * Feeds every raw name of the directory `fd` pins to `visit`, yielding to the event loop now and
 * then, and stopping there if the call was cancelled (with `effect`, for a delete already under way).
 */
export async function scanNames(
  context: OperationContext,
  fd: number,
  path: WorkspacePath,
  visit: (raw: ByteString, isDirectory: boolean) => void,
  effect: Effect = 'none',
): Promise<void> {
  let handle: Dir;
  try {
    // Names come as byte strings: decoding them as UTF-8 here would make an invalid name reopen
    // another file, and Buffers would cost an allocation outside the heap per entry.
    handle = opendirSync(context.paths.of(fd), { encoding: 'latin1', bufferSize: 1024 });
  } catch (error) {
    throw mapNodeError(error, path);
  }
  try {
    let seen = 0;
    for (;;) {
      const entry = handle.readSync();
      if (entry === null) return;
      visit(entry.name, entry.isDirectory());
      if (++seen % ENTRIES_PER_SLICE === 0) {
        await yieldNow();
        checkSignal(context.signal, path, effect);
      }
    }
  } catch (error) {
    throw mapNodeError(error, path);
  } finally {
    handle.closeSync();
  }
}
