import { closeSync, openSync, readSync, type Stats } from 'node:fs';
import { baseName, pathSegments, providerErrors } from '@libos/core';
import type { FileRead, ReadFileOptions, WorkspacePath } from '@libos/core';
import { REOPEN_FILE } from './host-flags.js';
import { mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import type { OperationContext } from './operation-context.js';
import { isStillSoleName, probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import { walk } from './walk.js';

/**
 * Reads a prefix of a regular file: probe the leaf with an O_PATH handle, check kind and link count
 * on that handle, then reopen the same inode through its magic link and read exactly
 * `maxBytes + 1` bytes, the extra one only telling whether the file holds more.
 */
export async function readFile(context: OperationContext, path: WorkspacePath, options: ReadFileOptions): Promise<FileRead> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { directory } = walk(context, segments.slice(0, -1));
  try {
    return await readFileIn(context, directory.fd, baseName(path), path, options);
  } finally {
    directory.release();
  }
}

/** `readFile` of the entry `name` of the directory `directoryFd` pins; `path` is its identity. */
export async function readFileIn(
  context: OperationContext,
  directoryFd: number,
  name: string,
  path: WorkspacePath,
  options: ReadFileOptions,
): Promise<FileRead> {
  const probe = probeEntry(context, directoryFd, name, path);
  if (probe === null) throw providerErrors.notFound(path);
  try {
    // Only a second link waits to settle; the usual single-link file goes on without a turn of the event loop.
    const status = probe.status.isFile() && probe.status.nlink > 1 ? await settledStatus(probe) : probe.status;
    requireSingleFile(status, path);
    // A file bind-mounted over a workspace name holds bytes from elsewhere: refused like a junction.
    refuseOtherMount(context, probe.fd, path);
    const read = readPrefix(context, probe.fd, status, path, options.maxBytes);
    // A name unlinked between the probe and its fstat may have left an outside name the only one.
    if (!isStillSoleName(context.paths.named(directoryFd, name), probe.fd, probe.status)) throw providerErrors.changedDuringOperation(path);
    return read;
  } finally {
    closeSync(probe.fd);
  }
}

/**
 * Reads the prefix of the regular file held by the O_PATH fd `handle`, reopened through its magic
 * link. The reopened fd is the held inode itself (the magic link names it, not a path), so `status`,
 * the handle's own fstat that the caller has already checked, sizes the read: a second fstat would
 * learn nothing that the read itself and the caller's later `isStillSoleName` do not. A file that
 * grew since is read on to `maxBytes`, one that shrank ends at its short read; a link added since
 * fails that later check.
 */
export function readPrefix(context: OperationContext, handle: number, status: Stats, path: WorkspacePath, maxBytes: number): FileRead {
  let fd: number;
  try {
    fd = openSync(context.paths.of(handle), REOPEN_FILE);
  } catch (error) {
    throw mapNodeError(error, path);
  }
  try {
    const buffer = Buffer.allocUnsafeSlow(Math.min(maxBytes + 1, Math.max(status.size + 1, 1)));
    let filled = readInto(fd, buffer, 0, status.size);
    // The file may have grown since the fstat: read on until the wanted bytes or end of file.
    if (filled === buffer.length && buffer.length < maxBytes + 1) {
      const larger = Buffer.allocUnsafeSlow(maxBytes + 1);
      buffer.copy(larger, 0, 0, filled);
      filled = readInto(fd, larger, filled, Number.POSITIVE_INFINITY);
      return prefix(larger, filled, maxBytes);
    }
    return prefix(buffer, filled, maxBytes);
  } catch (error) {
    throw mapNodeError(error, path);
  } finally {
    closeSync(fd);
  }
}

// A regular file's read comes back short only at its end: once a short read has reached the size
// the fstat saw, the file ended there, and the read of 0 bytes that would say so again is saved.
// A file that grew since the fstat fills the buffer or reads past that size, so the loop goes on.
function readInto(fd: number, buffer: Buffer, start: number, endSeen: number): number {
  let filled = start;
  while (filled < buffer.length) {
    const count = readSync(fd, buffer, filled, buffer.length - filled, filled);
    if (count === 0) break;
    filled += count;
    if (filled === endSeen) break;
  }
  return filled;
}

function prefix(buffer: Buffer, filled: number, maxBytes: number): FileRead {
  const truncated = filled > maxBytes;
  const bytes = buffer.subarray(0, truncated ? maxBytes : filled);
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), truncated };
}
