import { closeSync, fstatSync, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LibosError, baseName, checkSignal, pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath, WriteFileOptions } from '@libos/core';
import { hashHeld } from './hash-held.js';
import { flushDirectory } from './host-io.js';
import { mapNodeError } from './map-node-error.js';
import { lockName } from './name-lock.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import type { ProbedEntry } from './probe-entry.js';
import { StagedFile } from './staged-file.js';
import type { HeldDirectory } from './walk.js';
import { walk } from './walk.js';

// Permission and sticky bits carry over; setuid and setgid do not. The new inode belongs to this
// process, not to the old owner, and holds new bytes: restoring them would mint a set-id program of
// the provider's user with the caller's content (the kernel drops them on a write for the same reason).
const KEPT_MODE_BITS = 0o1777;

/**
 * Replaces or creates a whole file inside its pinned parent. The bytes are first written and
 * flushed to a temporary in the staging directory, which no tool can reach; that inode then gets
 * the target's name, by rename over an existing file, or by link() for a file that must not exist
 * yet, so a creation appears whole and EEXIST decides `already_exists` atomically. Then the parent
 * is flushed. Readers and crashes see the old bytes or the new, never a mix or an empty file.
 */
export async function writeFile(
  context: OperationContext,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
): Promise<{ readonly created: boolean }> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { directory, created: parentsMade } = walkCreatingParents(context, segments.slice(0, -1), path, options);
  try {
    const probed = probeEntry(context, directory.fd, baseName(path), path);
    const current = probed === null ? null : { fd: probed.fd, status: await settledStatus(probed) };
    try {
      checkTarget(current?.status ?? null, path, options);
      const staged = await StagedFile.write(context, bytes, current === null ? null : current.status.mode & KEPT_MODE_BITS, path);
      try {
        // The flush was the wait; a call cancelled meanwhile ends before its bytes get the name.
        checkSignal(context.signal, path, parentsMade > 0 ? 'unknown' : 'none');
        await publish(context, directory, path, staged, current, options);
      } finally {
        staged.discard();
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
  current: ProbedEntry | null,
  options: WriteFileOptions,
): Promise<void> {
  const name = baseName(path);
  const target = context.paths.named(directory.fd, name);
  if (current === null && (!options.overwrite || options.expectedSha256 === 'missing')) {
    // link() decides existence by itself, atomically against every process: no lock needed.
    stepped(context, directory.path, 'effect');
    if (!staged.create(target, path)) {
      if (!options.overwrite) throw providerErrors.alreadyExists(path);
      throw providerErrors.contentConflict(path, 'missing');
    }
  } else {
    // Held from the check to the rename, so no other libOS runtime's write or delete of this name
    // can land in between: of two guarded writers that read the same hash, exactly one succeeds.
    // A call cancelled while another runtime holds the name stops waiting, before anything is renamed.
    const lock = await lockName(directory.fd, name, () => checkSignal(context.signal, path));
    try {
      stepped(context, directory.path, 'effect');
      if (options.expectedSha256 !== undefined) await checkExpected(context, directory, path, options.expectedSha256);
      else if (current !== null) requireReplaceable(target, path);
      staged.replace(target, path);
    } finally {
      lock.release();
    }
  }
  try {
    await flushDirectory(context, directory.fd);
  } catch (error) {
    throw mapNodeError(error, path, 'unknown');
  }
}

// What the name holds now, under the lock, is what must hash to the expectation.
async function checkExpected(context: OperationContext, directory: HeldDirectory, path: WorkspacePath, expected: string): Promise<void> {
  const now = probeEntry(context, directory.fd, baseName(path), path);
  if (now === null) throw providerErrors.contentConflict(path, expected, null);
  try {
    requireSingleFile(await settledStatus(now), path);
    const actual = hashHeld(context, now.fd, path);
    if (actual !== expected) throw providerErrors.contentConflict(path, expected, actual);
    requireUnchanged(context.paths.named(directory.fd, baseName(path)), now, path);
  } finally {
    closeSync(now.fd);
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

// Checked on the inode held, and on the name, as late as possible before the rename.
function requireUnchanged(target: string, held: ProbedEntry, path: WorkspacePath): void {
  requireSingleFile(fstatSync(held.fd), path);
  if (!sameEntry(target, held.status)) {
    throw providerErrors.changedDuringOperation(path);
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
