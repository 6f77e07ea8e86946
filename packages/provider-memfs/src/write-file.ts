import { createHash } from 'node:crypto';
import { checkFileMode, providerErrors, type WorkspacePath, type WriteFileOptions } from '@libos/core';
import { hostErrorCode } from '@libos/provider-kit';
import type { IFs } from 'memfs';
import { mapMemfsError } from './map-memfs-error.js';
import { createMissingDirectories } from './make-directory.js';
import { readPrefix } from './read-file.js';
import { checkRegularFile, resolvePath, type MemfsStats, type Workspace } from './resolve-path.js';

// New files and directories get what a 022 umask gives on disk; memfs itself has no umask.
export const NEW_FILE_MODE = 0o644;

/**
 * Creates or replaces a whole file. Every check and the effect run in one synchronous block, so the
 * file checked (kind, links, hash) is the file replaced, and no reader sees a partial write or the
 * bytes under any mode but `options.mode` (when given).
 */
export function writeFile(workspace: Workspace, path: WorkspacePath, bytes: Uint8Array, options: WriteFileOptions): { created: boolean } {
  const mode = checkFileMode(options.mode, path);
  const resolved = resolvePath(workspace, path, { missingParents: true });
  const { leaf } = resolved;
  if (resolved.segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  if (leaf !== undefined) {
    if (leaf.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
    // Existence is decided first, so `overwrite: false` wins over `expectedSha256` and the hard-link check.
    if (!options.overwrite && leaf.isFile()) throw providerErrors.alreadyExists(path);
    checkRegularFile(path, leaf);
  }
  checkExpectedHash(workspace.fs, path, resolved.volumePath, leaf, options.expectedSha256);
  let changed = false;
  try {
    if (resolved.firstMissing !== -1) {
      createMissingDirectories(workspace, resolved.segments, resolved.firstMissing, resolved.segments.length - 1);
      changed = true;
    }
    if (leaf === undefined) {
      writeNewFile(workspace.fs, resolved.volumePath, bytes, mode ?? NEW_FILE_MODE);
      return { created: true };
    }
    replaceFile(workspace.fs, resolved.volumePath, bytes, mode ?? Number(leaf.mode) & 0o7777);
    return { created: false };
  } catch (error) {
    throw mapMemfsError(error, path, 'write', changed ? 'unknown' : 'none');
  }
}

function checkExpectedHash(fs: IFs, path: WorkspacePath, volumePath: string, leaf: MemfsStats | undefined, expected: string | undefined): void {
  if (expected === undefined) return;
  if (expected === 'missing') {
    if (leaf === undefined) return;
    throw providerErrors.contentConflict(path, expected);
  }
  if (leaf === undefined) {
    throw providerErrors.contentConflict(path, expected, null);
  }
  let actual: string;
  try {
    const fd = fs.openSync(volumePath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      actual = createHash('sha256')
        .update(readPrefix(fs, fd, Number(fs.fstatSync(fd).size) + 1))
        .digest('hex');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw mapMemfsError(error, path, 'read');
  }
  if (actual !== expected) {
    throw providerErrors.contentConflict(path, expected, actual);
  }
}

/** Exclusive creation: a name that exists (a file, a directory, even a dangling link) is EEXIST. */
export function writeNewFile(fs: IFs, volumePath: string, bytes: Uint8Array, mode: number): void {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  // memfs checks the new file's own bits on this very fd (a kernel would not), so a read-only mode
  // gets owner write until the bytes are in; one synchronous block, so no caller ever sees it.
  const fd = fs.openSync(volumePath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode | 0o200);
  try {
    try {
      writeAll(fs, fd, bytes);
      if ((mode & 0o200) === 0) fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    // Still the same synchronous block, so the name is the file just made: a half-written file
    // left there would make a retry with overwrite false fail with already_exists.
    fs.unlinkSync(volumePath);
    throw error;
  }
}

/**
 * Temp file in the same directory with permission bits `mode`, then unlink + rename: unlinking first
 * keeps memfs's nlink and child counts right, which a rename onto an existing name does not (packages/provider-memfs/README.md, Why memfs).
 */
export function replaceFile(fs: IFs, volumePath: string, bytes: Uint8Array, mode: number): void {
  const { temp, fd } = createTempFile(fs, volumePath.slice(0, volumePath.lastIndexOf('/')));
  try {
    try {
      writeAll(fs, fd, bytes);
      fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
    fs.unlinkSync(volumePath);
  } catch (error) {
    fs.unlinkSync(temp);
    throw error;
  }
  fs.renameSync(temp, volumePath);
}

let tempCounter = 0;

/** A fresh temp file beside the target; O_EXCL skips any name that happens to exist already. */
function createTempFile(fs: IFs, directory: string): { temp: string; fd: number } {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  for (let attempt = 0; ; attempt++) {
    const temp = `${directory}/.libos-${(tempCounter++).toString(36)}.tmp`;
    try {
      return { temp, fd: fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600) };
    } catch (error) {
      if (hostErrorCode(error) !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}

/** Writes every byte at the fd's own position, looping over short writes. */
export function writeAll(fs: IFs, fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written, written);
}
