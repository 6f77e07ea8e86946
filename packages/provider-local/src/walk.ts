import { closeSync, fstatSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { LibosError, ROOT_PATH, childPath, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { isOtherMount, mountRefusal, refuseOtherMount } from './mount-id.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';

/** A directory pinned by fd; `release` closes it unless it is the root. */
export interface HeldDirectory {
  readonly fd: number;
  readonly path: WorkspacePath;
  release(): void;
}

/** The result of a walk: the last directory held, and how many directories the walk created. */
export interface Walk {
  readonly directory: HeldDirectory;
  readonly created: number;
}

/** Holds the root itself; nothing to close. Fails with `not_found` once the root is deleted. */
export function holdRoot(context: OperationContext): HeldDirectory {
  if (rootIsGone(context)) {
    throw providerErrors.rootGone(ROOT_PATH);
  }
  stepped(context, ROOT_PATH);
  return { fd: context.root.fd, path: ROOT_PATH, release: () => undefined };
}

// A deleted directory keeps working through its fd, but its link count drops to zero.
function rootIsGone(context: OperationContext): boolean {
  return fstatSync(context.root.fd).nlink === 0;
}

/**
 * Walks `segments` from the root one directory at a time, holding one fd at a time, each opened
 * relative to the previous one with O_NOFOLLOW: a link anywhere fails instead of being followed, and
 * a concurrent rename of an already pinned directory cannot redirect the rest of the walk.
 * With `create`, missing directories are made (mode 0777 less the umask) and then opened the same way.
 */
export function walk(context: OperationContext, segments: readonly string[], create = false): Walk {
  let current = holdRoot(context);
  let created = 0;
  // Every handle reached through a mount point lies on another mount than the root, so one mount
  // id check of the last directory covers the whole walk; a directory is checked before anything
  // is made inside it, so nothing is ever created behind a mount point.
  let onRootMount = true;
  try {
    for (const name of segments) {
      const path = childPath(current.path, name);
      let fd: number;
      try {
        fd = openDirectoryHandle(context, current.fd, name, path);
      } catch (error) {
        if (!create || !LibosError.is(error, 'not_found')) throw error;
        if (created === 0) requireRootMount(context, current, segments);
        created += makeChildDirectory(context, current.fd, name, path);
        fd = openDirectoryHandle(context, current.fd, name, path);
      }
      current.release();
      current = holdDirectory(fd, path);
      onRootMount = false;
      stepped(context, path);
    }
    if (!onRootMount) requireRootMount(context, current, segments);
    return { directory: current, created };
  } catch (error) {
    current.release();
    throw created > 0 ? mapNodeError(error, current.path, 'unknown') : error;
  }
}

// On a mismatch, a second walk names the mount point itself, the first component on another mount.
function requireRootMount(context: OperationContext, directory: HeldDirectory, segments: readonly string[]): void {
  if (directory.path === ROOT_PATH || !isOtherMount(context, directory.fd)) return;
  let current = holdRoot(context);
  try {
    for (const name of segments) {
      const path = childPath(current.path, name);
      const fd = openChildDirectory(context, current.fd, name, path);
      current.release();
      current = holdDirectory(fd, path);
      if (path === directory.path) break;
    }
  } finally {
    current.release();
  }
  throw mountRefusal(directory.path);
}

/** Pins the parent of the last segment; null when an ancestor is missing and `missingOk` accepts that. */
export function walkParent(context: OperationContext, segments: readonly string[], missingOk: boolean): HeldDirectory | null {
  try {
    return walk(context, segments.slice(0, -1)).directory;
  } catch (error) {
    // A missing ancestor means the target is missing too; a missing root means the workspace is gone.
    if (missingOk && LibosError.is(error, 'not_found') && !rootIsGone(context)) return null;
    throw error;
  }
}

/** Holds an open directory fd; idempotent, so an error path can never close an fd number twice (it may already be reused). */
export function holdDirectory(fd: number, path: WorkspacePath): HeldDirectory {
  let open = true;
  return {
    fd,
    path,
    release: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** Opens `name` inside `parentFd` as a directory handle, refusing links, mount points and non-directories. */
export function openChildDirectory(context: OperationContext, parentFd: number, name: string, path: WorkspacePath): number {
  const fd = openDirectoryHandle(context, parentFd, name, path);
  try {
    refuseOtherMount(context, fd, path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Like `openChildDirectory`, leaving the mount check to the caller. */
function openDirectoryHandle(context: OperationContext, parentFd: number, name: string, path: WorkspacePath): number {
  try {
    return openSync(context.paths.named(parentFd, name), DIRECTORY_HANDLE);
  } catch (error) {
    const code = hostCode(error);
    if (code !== 'ENOTDIR' && code !== 'ELOOP') throw mapNodeError(error, path);
    throw refusalFor(context, parentFd, name, path);
  }
}

/** Creates one directory; 1 when this call made it, 0 when someone else had (then the open decides). */
function makeChildDirectory(context: OperationContext, parentFd: number, name: string, path: WorkspacePath): number {
  try {
    mkdirSync(context.paths.named(parentFd, name), 0o777);
    return 1;
  } catch (error) {
    if (hostCode(error) === 'EEXIST') return 0;
    throw mapNodeError(error, path);
  }
}

// The open said "link or not a directory"; an lstat only words the refusal, it never decides access.
function refusalFor(context: OperationContext, parentFd: number, name: string, path: WorkspacePath): LibosError {
  let kind: string;
  try {
    const status = lstatSync(context.paths.named(parentFd, name));
    kind = status.isSymbolicLink() ? 'symlink' : status.isDirectory() ? 'directory' : 'other';
  } catch {
    kind = 'missing';
  }
  if (kind === 'symlink') return providerErrors.symlinkRefused(path);
  if (kind === 'missing') return providerErrors.notFound(path);
  if (kind === 'directory') return providerErrors.changedDuringOperation(path);
  return providerErrors.notADirectory(path);
}
