import { closeSync, fchmodSync, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { LibosError, baseName, pathSegments } from '@libos/core';
import type { WorkspacePath, WriteFileOptions } from '@libos/core';
import { CREATE_EXCLUSIVE, REOPEN_FILE } from './host-flags.js';
import { flush, flushDirectory, writeAll } from './host-io.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile } from './probe-entry.js';
import type { ProbedEntry } from './probe-entry.js';
import type { HeldDirectory } from './walk.js';
import { walk } from './walk.js';

// Permission and sticky bits carry over; setuid and setgid do not. The new inode belongs to this
// process, not to the old owner, and holds new bytes: restoring them would mint a set-id program of
// the provider's user with the caller's content (the kernel drops them on a write for the same reason).
const KEPT_MODE_BITS = 0o1777;

/**
 * Replaces or creates a whole file inside its pinned parent. A replacement goes through a temporary
 * file created exclusively beside the target, written, flushed and renamed over it (then the
 * directory is flushed), so readers and crashes see old or new bytes, never a mix. A creation that
 * must not replace anything creates the target itself exclusively, so a racing creator's file wins.
 */
export async function writeFile(
  context: OperationContext,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
): Promise<{ readonly created: boolean }> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw new LibosError('not_a_file', `'.' is a directory, not a file.`, { details: { path } });
  const { directory, created: parentsMade } = walkCreatingParents(context, segments.slice(0, -1), path, options);
  try {
    const current = probeEntry(context, directory.fd, baseName(path), path);
    try {
      checkTarget(current?.status ?? null, path, options);
      if (current === null && (!options.overwrite || options.expectedSha256 === 'missing')) {
        await createExclusively(context, directory, path, bytes, options);
      } else {
        await replace(context, directory, path, bytes, current, options.expectedSha256);
      }
      return { created: current === null };
    } finally {
      if (current !== null) closeSync(current.fd);
    }
  } catch (error) {
    throw mapNodeError(error, path, parentsMade > 0 ? 'unknown' : 'none');
  } finally {
    directory.release();
  }
}

// A missing parent means a missing file: a hash expectation fails before any directory is made.
function walkCreatingParents(context: OperationContext, parents: readonly string[], path: WorkspacePath, options: WriteFileOptions) {
  try {
    return walk(context, parents);
  } catch (error) {
    if (!LibosError.is(error, 'not_found')) throw error;
    checkTarget(null, path, options);
    return walk(context, parents, true);
  }
}

function checkTarget(status: Stats | null, path: WorkspacePath, options: WriteFileOptions): void {
  if (status === null) {
    if (options.expectedSha256 !== undefined && options.expectedSha256 !== 'missing') {
      throw conflict(path, 'The file does not exist, but its current content was expected.');
    }
    return;
  }
  // A file that must not be replaced is refused as existing before its links are looked at.
  if (!options.overwrite && status.isFile()) {
    throw new LibosError('already_exists', `A file already exists at '${path}'.`, { details: { path } });
  }
  requireSingleFile(status, path);
  if (options.expectedSha256 === 'missing') throw conflict(path, `A file exists at '${path}', but none was expected.`);
}

async function createExclusively(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
): Promise<void> {
  const target = context.paths.named(directory.fd, baseName(path));
  stepped(context, directory.path, 'effect');
  let fd: number;
  try {
    fd = openSync(target, CREATE_EXCLUSIVE, 0o666);
  } catch (error) {
    if (hostCode(error) !== 'EEXIST') throw mapNodeError(error, path);
    if (!options.overwrite) throw new LibosError('already_exists', `Something already exists at '${path}'.`, { details: { path } });
    throw conflict(path, `Something appeared at '${path}', but nothing was expected.`);
  }
  try {
    writeAll(fd, bytes);
    await flush(fd);
    await flushDirectory(context, directory.fd);
  } catch (error) {
    removeIfSame(target, fstatSync(fd));
    throw mapNodeError(error, path, 'unknown');
  } finally {
    closeSync(fd);
  }
}

async function replace(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  bytes: Uint8Array,
  current: ProbedEntry | null,
  expectedSha256: string | undefined,
): Promise<void> {
  const target = context.paths.named(directory.fd, baseName(path));
  const temporary = context.paths.named(directory.fd, `.libos-write-${randomBytes(8).toString('hex')}`);
  // Owner-only while the new bytes are written over an existing file, whose mode may be tighter
  // than the umask's default; the old mode is restored before the rename.
  const fd = openSync(temporary, CREATE_EXCLUSIVE, current === null ? 0o666 : 0o600);
  let renamed = false;
  try {
    writeAll(fd, bytes);
    if (current !== null) fchmodSync(fd, current.status.mode & KEPT_MODE_BITS);
    await flush(fd);
    stepped(context, directory.path, 'effect');
    if (current !== null) {
      // Checked on the inode held since the probe, as late as possible before the rename.
      requireSingleFile(fstatSync(current.fd), path);
      if (expectedSha256 !== undefined && hashHeld(context, current.fd, path) !== expectedSha256) {
        throw conflict(path, `The current content of '${path}' does not match the expected hash.`);
      }
      if (!sameEntry(target, current.status)) {
        throw new LibosError('changed_during_operation', `'${path}' was replaced while it was being written.`, {
          details: { path },
        });
      }
    }
    // rename replaces the directory entry itself: a link swapped in meanwhile is replaced, not followed.
    renameSync(temporary, target);
    renamed = true;
    await flushDirectory(context, directory.fd);
  } catch (error) {
    if (!renamed) removeIfSame(temporary, fstatSync(fd));
    throw mapNodeError(error, path, renamed ? 'unknown' : 'none');
  } finally {
    closeSync(fd);
  }
}

function hashHeld(context: OperationContext, handle: number, path: WorkspacePath): string {
  const fd = openSync(context.paths.of(handle), REOPEN_FILE);
  try {
    requireSingleFile(fstatSync(fd), path);
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafeSlow(1 << 16);
    let position = 0;
    for (;;) {
      const count = readSync(fd, chunk, 0, chunk.length, position);
      if (count === 0) return hash.digest('hex');
      hash.update(chunk.subarray(0, count));
      position += count;
    }
  } finally {
    closeSync(fd);
  }
}

function sameEntry(hostPath: string, status: Stats): boolean {
  try {
    const now = lstatSync(hostPath);
    return now.dev === status.dev && now.ino === status.ino;
  } catch {
    return false;
  }
}

// Cleanup only removes the entry if it is still the inode this call created.
function removeIfSame(hostPath: string, status: Stats): void {
  if (!sameEntry(hostPath, status)) return;
  try {
    unlinkSync(hostPath);
  } catch {
    // Best effort: a leftover temporary file is inside the workspace and reported through the effect.
  }
}

function conflict(path: WorkspacePath, message: string): LibosError {
  return new LibosError('content_conflict', message, { details: { path } });
}
