import { lstatSync, unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { baseName, pathSegments, providerErrors } from '@libos/core';
import type { DeleteFileOptions, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { hostCode, mapNodeError } from './map-node-error.js';
import { mountRefusal } from './mount-id.js';
import { lockName } from './name-lock.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { requireSingleFile } from './probe-entry.js';
import { walkParent } from './walk.js';

/**
 * Deletes one regular file by unlinking its name in the pinned parent. unlink never follows a link;
 * the hard-link check reads an lstat just before, so it can only be raced by a swap inside the
 * same directory (README: residual races).
 */
export async function deleteFile(context: OperationContext, path: WorkspacePath, options: DeleteFileOptions): Promise<{ readonly deleted: boolean }> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const directory = walkParent(context, segments, options.missingOk);
  if (directory === null) return { deleted: false };
  // Locked like a write's rename, so a delete never lands between a guarded write's check and its rename.
  const lock = await lockName(context.staging, directory.fd, baseName(path), () => checkSignal(context.signal, path)).catch((error: unknown) => {
    directory.release();
    throw error;
  });
  try {
    const target = context.paths.named(directory.fd, baseName(path));
    let status;
    try {
      status = lstatSync(target);
    } catch (error) {
      if (hostCode(error) === 'ENOENT' && options.missingOk) return { deleted: false };
      throw mapNodeError(error, path);
    }
    if (status.isFile() && status.nlink > 1) status = await settledLinks(target, status);
    requireSingleFile(status, path);
    stepped(context, directory.path, 'effect');
    try {
      unlinkSync(target);
    } catch (error) {
      if (hostCode(error) === 'ENOENT' && options.missingOk) return { deleted: false };
      // EBUSY: a file bind-mounted over the name, refused like a junction.
      if (hostCode(error) === 'EBUSY') throw mountRefusal(path);
      // EISDIR: a directory was swapped in; unlink refused it, so nothing changed.
      throw mapNodeError(error, path);
    }
    return { deleted: true };
  } finally {
    lock.release();
    directory.release();
  }
}

// A file another runtime is creating has two links for a moment (see settledStatus).
async function settledLinks(target: string, status: Stats): Promise<Stats> {
  let now = status;
  for (let attempt = 0; attempt < 5 && now.isFile() && now.nlink > 1; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1 + attempt));
    try {
      now = lstatSync(target);
    } catch {
      return now;
    }
  }
  return now;
}
