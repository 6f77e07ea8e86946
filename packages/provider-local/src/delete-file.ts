import { lstatSync, unlinkSync } from 'node:fs';
import { baseName, pathSegments, providerErrors } from '@libos/core';
import type { DeleteFileOptions, WorkspacePath } from '@libos/core';
import { hostCode, mapNodeError } from './map-node-error.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { requireSingleFile } from './probe-entry.js';
import { walkParent } from './walk.js';

/**
 * Deletes one regular file by unlinking its name in the pinned parent. unlink never follows a link;
 * the hard-link check reads an lstat just before, so it can only be raced by a swap inside the
 * same directory (README: residual races).
 */
export function deleteFile(context: OperationContext, path: WorkspacePath, options: DeleteFileOptions): { readonly deleted: boolean } {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const directory = walkParent(context, segments, options.missingOk);
  if (directory === null) return { deleted: false };
  try {
    const target = context.paths.named(directory.fd, baseName(path));
    let status;
    try {
      status = lstatSync(target);
    } catch (error) {
      if (hostCode(error) === 'ENOENT' && options.missingOk) return { deleted: false };
      throw mapNodeError(error, path);
    }
    requireSingleFile(status, path);
    stepped(context, directory.path, 'effect');
    try {
      unlinkSync(target);
    } catch (error) {
      if (hostCode(error) === 'ENOENT' && options.missingOk) return { deleted: false };
      // EISDIR: a directory was swapped in; unlink refused it, so nothing changed.
      throw mapNodeError(error, path);
    }
    return { deleted: true };
  } finally {
    directory.release();
  }
}
