import { closeSync, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LibosError, baseName, checkFileMode, pathSegments, providerErrors } from '@libos/core';
import type { Effect, WorkspacePath, WriteFileOptions } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { hashHeld } from './hash-held.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { lockName } from './name-lock.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import { StagedFile } from './staged-file.js';
import type { HeldDirectory } from './walk.js';
import { walk } from './walk.js';
import { DirectoryFlush } from './directory-flush.js';

// Permission and sticky bits carry over; setuid and setgid do not. The new inode belongs to this
// process, not to the old owner, and holds new bytes: restoring them would mint a set-id program of
// the provider's user with the caller's content (the kernel drops them on a write for the same reason).
export const KEPT_MODE_BITS = 0o1777;

/**
 * Replaces or creates a whole file inside its pinned parent. The bytes are first written and
 * flushed to a temporary in the staging directory, which no tool can reach; that inode then gets
 * the target's name, by rename over an existing file, or by link() for a file that must not exist
 * yet, so a creation appears whole and EEXIST decides `already_exists` atomically. Then the parent
 * is flushed. Readers and crashes see the old bytes or the new, never a mix or an empty file.
 *
 * While the thread pool flushes the temporary, the main thread, otherwise idle, readies what the
 * rename needs: the directory's flush handle, the name lock, the hash expectation. What must be
 * true at the rename itself (the temporary's name, what the target's name holds) is checked once
 * the flush is over, just before the rename.
 */
export function writeFile(
  context: OperationContext,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
): Promise<{ readonly created: boolean }> {
  return writeStaged(context, path, options, (mode) => StagedFile.begin(context, bytes, mode, path));
}

/**
 * `writeFile` for content that `stage` writes into a temporary of its own (a copy streams its
 * source there); `stage` gets `options.mode`, else the mode bits of the file about to be replaced, or null.
 */
export async function writeStaged(
  context: OperationContext,
  path: WorkspacePath,
  options: WriteFileOptions,
  stage: (mode: number | null) => StagedFile,
): Promise<{ readonly created: boolean }> {
  const mode = checkFileMode(options.mode, path);
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { directory, created: parentsMade } = walkCreatingParents(context, segments.slice(0, -1), path, options);
  const effect: Effect = parentsMade > 0 ? 'unknown' : 'none';
  try {
    const target = context.paths.named(directory.fd, baseName(path));
    const current = await settledEntry(target, path);
    checkTarget(current, path, options);
    // A given mode is the temporary's from its creation, so the name never holds the bytes with wider bits.
    const staged = stage(mode ?? (current === null ? null : current.mode & KEPT_MODE_BITS));
    try {
      await publish(context, directory, path, staged, current !== null, options, effect);
    } finally {
      await staged.discard();
    }
    return { created: current === null };
  } catch (error) {
    throw mapNodeError(error, path, effect);
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

// What the name holds, by lstat (a link is seen as a link). This snapshot decides existence, the
// refusals and the mode to keep; the rename is guarded again below. A file another libOS runtime
// is creating has two names for the microseconds between its link() and the unlink of its
// temporary, so a second link gets a few milliseconds to go before it counts as a hard link.
async function settledEntry(target: string, path: WorkspacePath): Promise<Stats | null> {
  let status = lstatOrNull(target, path);
  for (let attempt = 0; attempt < 5 && status !== null && status.isFile() && status.nlink > 1; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1 + attempt));
    status = lstatOrNull(target, path);
  }
  return status;
}

function checkTarget(status: Stats | null, path: WorkspacePath, options: WriteFileOptions): void {
  if (status === null) {
    if (options.expectedSha256 !== undefined && options.expectedSha256 !== 'missing') {
      throw providerErrors.contentConflict(path, options.expectedSha256, null);
    }
    return;
  }
  // A file that must not be replaced is refused as existing before its links are looked at.
  // So `overwrite: false` wins over `expectedSha256` too: existence is decided first.
  if (!options.overwrite && status.isFile()) throw providerErrors.alreadyExists(path);
  requireSingleFile(status, path);
  if (options.expectedSha256 === 'missing') throw providerErrors.contentConflict(path, 'missing');
}

async function publish(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  staged: StagedFile,
  existed: boolean,
  options: WriteFileOptions,
  effect: Effect,
): Promise<void> {
  const target = context.paths.named(directory.fd, baseName(path));
  const flush = DirectoryFlush.open(context, directory.fd);
  try {
    if (!existed && (!options.overwrite || options.expectedSha256 === 'missing')) {
      // link() decides existence by itself, atomically against every process: no lock needed.
      stepped(context, directory.path, 'effect');
      await staged.flushed(path);
      checkSignal(context.signal, path, effect);
      if (!staged.create(target, path)) {
        if (!options.overwrite) throw providerErrors.alreadyExists(path);
        throw providerErrors.contentConflict(path, 'missing');
      }
      flush.start();
    } else {
      await replaceLocked(context, directory, path, staged, existed, options, effect, flush);
    }
    await flush.finished(path);
  } finally {
    await flush.close();
  }
}

// The lock is held from the check to the rename, so no other libOS runtime's write or delete of
// this name can land in between: of two guarded writers that read the same hash, exactly one
// succeeds. It is taken while the bytes flush (a call cancelled while another runtime holds the
// name stops waiting, before anything is renamed), and given up once the rename is done.
async function replaceLocked(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  staged: StagedFile,
  existed: boolean,
  options: WriteFileOptions,
  effect: Effect,
  flush: DirectoryFlush,
): Promise<void> {
  const name = baseName(path);
  const target = context.paths.named(directory.fd, name);
  const identity = directory.fd === context.root.fd ? context.root : directory.fd;
  const lock = await lockName(context.staging, identity, name, () => checkSignal(context.signal, path));
  try {
    stepped(context, directory.path, 'effect');
    const expected = options.expectedSha256;
    const verified = expected === undefined ? null : await verifyExpected(context, directory, path, expected);
    await staged.flushed(path);
    // The flush was the wait; a call cancelled meanwhile ends before its bytes get the name.
    checkSignal(context.signal, path, effect);
    if (verified !== null) requireVerified(target, verified, path, expected!);
    else if (existed) requireReplaceable(target, path);
    staged.replace(target, path);
    flush.start();
  } finally {
    lock.release();
  }
}

// What the name holds now, under the lock, is what must hash to the expectation. Returns the
// status of the inode hashed, as it was before the hash, for the check at the rename.
async function verifyExpected(context: OperationContext, directory: HeldDirectory, path: WorkspacePath, expected: string): Promise<Stats> {
  const now = probeEntry(context, directory.fd, baseName(path), path);
  if (now === null) throw providerErrors.contentConflict(path, expected, null);
  try {
    const status = await settledStatus(now);
    requireSingleFile(status, path);
    const actual = hashHeld(context, now.fd, path);
    if (actual !== expected) throw providerErrors.contentConflict(path, expected, actual);
    return status;
  } finally {
    closeSync(now.fd);
  }
}

// Just before the rename, the name must still hold the inode whose bytes hashed to the expectation,
// unmodified since (ctime moves on any write, truncation, chmod or link). Under the lock no libOS
// runtime can have changed it; a host process or a recursive delete still can, and then the
// expectation no longer holds for what is there: the write lost a race, `content_conflict`.
function requireVerified(target: string, verified: Stats, path: WorkspacePath, expected: string): void {
  const now = lstatOrNull(target, path);
  if (now === null) throw providerErrors.contentConflict(path, expected, null);
  if (now.dev !== verified.dev || now.ino !== verified.ino) throw providerErrors.contentConflict(path, expected);
  requireSingleFile(now, path);
  if (now.size !== verified.size || now.ctimeMs !== verified.ctimeMs || now.mtimeMs !== verified.mtimeMs) {
    throw providerErrors.contentConflict(path, expected);
  }
}

// A plain overwrite of an existing file replaces whatever single-named file another writer put there
// meanwhile (the lock orders libOS writers), or a name since removed; a directory, link or special
// file that took the file's place is not the caller's to replace. (Over a name that held nothing,
// rename itself decides: a link is replaced as a name, a directory refuses it.)
function requireReplaceable(target: string, path: WorkspacePath): void {
  let now: Stats;
  try {
    now = lstatSync(target);
  } catch {
    return;
  }
  if (!now.isFile() || now.nlink > 1) {
    throw providerErrors.changedDuringOperation(path);
  }
}

function lstatOrNull(target: string, path: WorkspacePath): Stats | null {
  try {
    return lstatSync(target);
  } catch (error) {
    if (hostCode(error) === 'ENOENT') return null;
    throw mapNodeError(error, path);
  }
}
