import { closeSync, fstatSync, lstatSync, rmdirSync } from 'node:fs';
import { LibosError, baseName, pathSegments, providerErrors } from '@libos/core';
import type { DeleteDirectoryOptions, WorkspacePath } from '@libos/core';
import { KeptListings, findProtected } from './delete-scan.js';
import { deleteTree } from './delete-tree.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { openChildDirectory, walkParent } from './walk.js';

/**
 * Deletes a directory held by an O_NOFOLLOW handle relative to its pinned parent. A mount point is
 * refused like a junction. Recursive: the whole tree is first scanned for `.git` aliases and mount
 * points, changing nothing if one is there (delete-scan.ts), then deleted bottom-up by fd
 * (delete-tree.ts).
 */
export async function deleteDirectory(
  context: OperationContext,
  path: WorkspacePath,
  options: DeleteDirectoryOptions,
): Promise<{ readonly deleted: boolean }> {
  const segments = pathSegments(path);
  if (segments.length === 0) {
    throw providerErrors.rootRefused(path);
  }
  const name = baseName(path);
  const directory = walkParent(context, segments, options.missingOk);
  if (directory === null) return { deleted: false };
  try {
    let fd: number;
    try {
      fd = openChildDirectory(context, directory.fd, name, path);
    } catch (error) {
      if (options.missingOk && LibosError.is(error, 'not_found')) return { deleted: false };
      throw error;
    }
    try {
      const held = fstatSync(fd);
      const raw = Buffer.from(name).toString('latin1');
      if (options.recursive) {
        const kept = new KeptListings();
        await findProtected(context, fd, held, path, kept);
        stepped(context, directory.path, 'effect');
        await deleteTree(context, { parentFd: directory.fd, raw, fd, dev: held.dev, ino: held.ino, path }, kept);
        return { deleted: true };
      }
      stepped(context, directory.path, 'effect');
      return removeEmpty(context, directory.fd, name, path, held);
    } finally {
      closeSync(fd);
    }
  } finally {
    directory.release();
  }
}

function removeEmpty(
  context: OperationContext,
  parentFd: number,
  name: string,
  path: WorkspacePath,
  held: { dev: number; ino: number },
): { readonly deleted: boolean } {
  const target = context.paths.named(parentFd, name);
  try {
    const now = lstatSync(target);
    if (now.dev !== held.dev || now.ino !== held.ino) {
      throw providerErrors.changedDuringOperation(path);
    }
    rmdirSync(target);
    return { deleted: true };
  } catch (error) {
    if (hostCode(error) === 'EEXIST') {
      throw providerErrors.directoryNotEmpty(path);
    }
    throw mapNodeError(error, path);
  }
}
