import { closeSync, fstatSync, lstatSync, openSync } from 'node:fs';
import { FILE_MODE_BITS, baseName, pathSegments } from '@libos/core';
import type { PathStatus, WorkspacePath } from '@libos/core';
import { entryKind } from './entry-kind.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { isOtherMount } from './mount-id.js';
import { modifiedAt } from './modified-at.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';
import { walk } from './walk.js';

/**
 * Observes the kind at a path with an lstat relative to the pinned parent: a final link is
 * `symlink`, and so is a mount point, which every other call refuses like a junction.
 */
export function statPath(context: OperationContext, path: WorkspacePath): PathStatus {
  const segments = pathSegments(path);
  const { directory } = walk(context, segments.slice(0, -1));
  try {
    const status =
      segments.length === 0
        ? lstatOrNull(() => fstatSync(directory.fd), path)
        : lstatOrNull(() => lstatSync(context.paths.named(directory.fd, baseName(path))), path);
    if (status === null) return { kind: 'missing', sizeBytes: null, modifiedAt: null };
    const kind = segments.length > 0 && status.isDirectory() && isMountPoint(context, directory.fd, baseName(path)) ? 'symlink' : entryKind(status);
    if (kind !== 'file') return { kind, sizeBytes: null, modifiedAt: modifiedAt(status) };
    return { kind, sizeBytes: status.size, modifiedAt: modifiedAt(status), mode: status.mode & FILE_MODE_BITS };
  } finally {
    directory.release();
  }
}

function lstatOrNull<T>(probe: () => T, path: WorkspacePath): T | null {
  try {
    return probe();
  } catch (error) {
    if (hostCode(error) === 'ENOENT') return null;
    throw mapNodeError(error, path);
  }
}

// A directory met by lstat may be a mount point: its handle then reports another mount id.
function isMountPoint(context: OperationContext, parentFd: number, name: string): boolean {
  let fd: number;
  try {
    fd = openSync(context.paths.named(parentFd, name), DIRECTORY_HANDLE);
  } catch {
    return false;
  }
  try {
    return isOtherMount(context, fd);
  } finally {
    closeSync(fd);
  }
}
