import { closeSync, fstatSync, lstatSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { LibosError, baseName, checkSignal, pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath, WriteFileOptions } from '@libos/core';
import { hashHeld } from './hash-held.js';
import { flushDirectory } from './host-io.js';
import { mapNodeError } from './map-node-error.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile } from './probe-entry.js';
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
    const current = probeEntry(context, directory.fd, baseName(path), path);
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
  const target = context.paths.named(directory.fd, baseName(path));
  stepped(context, directory.path, 'effect');
  if (current === null && (!options.overwrite || options.expectedSha256 === 'missing')) {
    if (!staged.create(target, path)) {
      if (!options.overwrite) throw providerErrors.alreadyExists(path);
      throw providerErrors.contentConflict(path, 'missing');
    }
  } else {
    if (current !== null) {
      // Checked on the inode held since the probe, as late as possible before the rename.
      requireSingleFile(fstatSync(current.fd), path);
      if (options.expectedSha256 !== undefined) {
        const actual = hashHeld(context, current.fd, path);
        if (actual !== options.expectedSha256) throw providerErrors.contentConflict(path, options.expectedSha256, actual);
      }
      if (!sameEntry(target, current.status)) throw providerErrors.changedDuringOperation(path);
    }
    staged.replace(target, path);
  }
  try {
    await flushDirectory(context, directory.fd);
  } catch (error) {
    throw mapNodeError(error, path, 'unknown');
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
