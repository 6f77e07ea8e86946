import { closeSync, fstatSync, openSync, writeSync, constants } from 'node:fs';
import { LibosError, baseName, pathSegments, providerErrors } from '@libos/core';
import type { AppendFileOptions, Effect, FileAppend, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { flush, flushDirectory } from './host-io.js';
import { mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import { lockName } from './name-lock.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import { StagedFile } from './staged-file.js';
import type { HeldDirectory } from './walk.js';
import { walk } from './walk.js';

/** Reopening a probed regular file to append: O_APPEND, so every write lands at the end the kernel knows. */
const REOPEN_APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK | constants.O_NOCTTY;

// A name that a racing creator took between our probe and our link is appended to instead; a
// third round would mean the name keeps vanishing and reappearing under us.
const MAX_ROUNDS = 3;

/**
 * Appends to one regular single-link file inside its pinned parent, costing the appended bytes
 * only. Under the name lock every libOS writer of the name takes (a replace, a delete, a
 * rename, another append), the leaf is probed without following links, checked like a read,
 * reopened through its magic link with O_APPEND, and its size is read from that very fd: the size
 * `expectedSizeBytes` is compared with is the size the bytes land after. The bytes are fsynced
 * before the call succeeds. A missing file with `create` is staged and linked into place whole.
 */
export async function appendFile(context: OperationContext, path: WorkspacePath, bytes: Uint8Array, options: AppendFileOptions): Promise<FileAppend> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { directory, created: parentsMade } = walkParents(context, segments.slice(0, -1), path, options);
  const effect: Effect = parentsMade > 0 ? 'unknown' : 'none';
  try {
    for (let round = 0; ; round++) {
      const appended = await appendLocked(context, directory, path, bytes, options, effect);
      if (appended !== null) return appended;
      if (round + 1 >= MAX_ROUNDS) throw providerErrors.changedDuringOperation(path, { effect });
    }
  } catch (error) {
    throw mapNodeError(error, path, effect);
  } finally {
    directory.release();
  }
}

// Without `create` a missing parent is a missing file; with it, parents are made as a write makes them.
function walkParents(context: OperationContext, parents: readonly string[], path: WorkspacePath, options: AppendFileOptions) {
  try {
    return walk(context, parents);
  } catch (error) {
    if (!LibosError.is(error, 'not_found') || !options.create) throw error;
    if (options.expectedSizeBytes !== undefined && options.expectedSizeBytes !== 0) {
      throw providerErrors.sizeConflict(path, options.expectedSizeBytes, null);
    }
    return walk(context, parents, true);
  }
}

// One round under the lock: null when the name was missing and a racing creator won the link.
async function appendLocked(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: AppendFileOptions,
  effect: Effect,
): Promise<FileAppend | null> {
  const name = baseName(path);
  const identity = directory.fd === context.root.fd ? context.root : directory.fd;
  const lock = await lockName(context.staging, identity, name, () => checkSignal(context.signal, path));
  try {
    const probe = probeEntry(context, directory.fd, name, path);
    if (probe === null) return await createWhole(context, directory, path, bytes, options, effect);
    try {
      const status = await settledStatus(probe);
      requireSingleFile(status, path);
      refuseOtherMount(context, probe.fd, path);
      return await appendHeld(context, probe.fd, status.ino, path, bytes, options, effect);
    } finally {
      closeSync(probe.fd);
    }
  } finally {
    lock.release();
  }
}

async function appendHeld(
  context: OperationContext,
  handle: number,
  inode: number,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: AppendFileOptions,
  effect: Effect,
): Promise<FileAppend> {
  let fd: number;
  try {
    fd = openSync(context.paths.of(handle), REOPEN_APPEND);
  } catch (error) {
    throw mapNodeError(error, path, effect);
  }
  let started = false;
  try {
    const status = fstatSync(fd);
    requireSingleFile(status, path);
    if (status.ino !== inode) throw providerErrors.changedDuringOperation(path, { effect });
    const size = status.size;
    if (options.expectedSizeBytes !== undefined && options.expectedSizeBytes !== size) {
      throw providerErrors.sizeConflict(path, options.expectedSizeBytes, size, { effect });
    }
    const appended = size === 0 ? withPrefix(options.emptyFilePrefix, bytes) : bytes;
    stepped(context, path, 'effect');
    checkSignal(context.signal, path, effect);
    started = true;
    let written = 0;
    // A null position: with O_APPEND each write goes to the current end, never over old bytes.
    while (written < appended.length) written += writeSync(fd, appended, written, appended.length - written, null);
    await flush(fd);
    return { bytesAppended: appended.length, sizeBytes: size + appended.length, created: false };
  } catch (error) {
    throw LibosError.is(error) ? error : mapNodeError(error, path, started ? 'unknown' : effect);
  } finally {
    closeSync(fd);
  }
}

// As writeFile creates with overwrite false: staged and flushed, then linked in, so no reader ever
// sees the new file empty or partial. EEXIST means another creator won: the caller appends to it.
async function createWhole(
  context: OperationContext,
  directory: HeldDirectory,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: AppendFileOptions,
  effect: Effect,
): Promise<FileAppend | null> {
  if (!options.create) throw providerErrors.notFound(path);
  if (options.expectedSizeBytes !== undefined && options.expectedSizeBytes !== 0) {
    throw providerErrors.sizeConflict(path, options.expectedSizeBytes, null, { effect });
  }
  const whole = withPrefix(options.emptyFilePrefix, bytes);
  const staged = StagedFile.begin(context, whole, null, path);
  try {
    stepped(context, directory.path, 'effect');
    await staged.flushed(path);
    checkSignal(context.signal, path, effect);
    if (!staged.create(context.paths.named(directory.fd, baseName(path)), path)) return null;
    await flushDirectory(context, directory.fd);
    return { bytesAppended: whole.length, sizeBytes: whole.length, created: true };
  } finally {
    await staged.discard();
  }
}

function withPrefix(prefix: Uint8Array | undefined, bytes: Uint8Array): Uint8Array {
  if (prefix === undefined || prefix.length === 0) return bytes;
  return Buffer.concat([prefix, bytes]);
}
