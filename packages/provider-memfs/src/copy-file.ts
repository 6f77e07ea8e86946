import { providerErrors, type CopyFileOptions, type WorkspacePath } from '@libos/core';
import { checkTransferTarget } from '@libos/provider-kit';
import { createMissingDirectories } from './make-directory.js';
import { mapMemfsError } from './map-memfs-error.js';
import { readPrefix } from './read-file.js';
import { checkRegularFile, kindOf, resolvePath, type Workspace } from './resolve-path.js';
import { replaceFile, writeNewFile } from './write-file.js';

/**
 * Copies one regular single-link file with its mode. The checks of both sides, the read and the
 * creation or replace run in one synchronous block, so no reader sees a partial copy and
 * `overwrite: false` is decided atomically.
 */
export function copyFile(
  workspace: Workspace,
  from: WorkspacePath,
  to: WorkspacePath,
  options: CopyFileOptions,
): { bytesCopied: number; replaced: boolean } {
  const source = resolvePath(workspace, from);
  if (source.segments.length === 0) throw providerErrors.notAFile(from, 'directory');
  const checked = checkRegularFile(from, source.leaf);
  const target = resolvePath(workspace, to, { missingParents: true });
  if (target.segments.length === 0) throw providerErrors.notAFile(to, 'directory');
  const existing = target.leaf;
  if (existing !== undefined) {
    checkTransferTarget(to, kindOf(existing), options.overwrite);
    checkRegularFile(to, existing);
  }
  const { fs } = workspace;
  let bytes: Uint8Array;
  try {
    const fd = fs.openSync(source.volumePath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      bytes = readPrefix(fs, fd, Number(fs.fstatSync(fd).size));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw mapMemfsError(error, from, 'read');
  }
  // Permission and sticky bits, as the local provider keeps them: a copy is a new file of this
  // process, so setuid and setgid never carry over to it.
  const mode = Number(checked.mode) & 0o1777;
  let changed = false;
  try {
    if (target.firstMissing !== -1) {
      createMissingDirectories(workspace, target.segments, target.firstMissing, target.segments.length - 1);
      changed = true;
    }
    if (existing === undefined) {
      writeNewFile(fs, target.volumePath, bytes, mode);
    } else {
      replaceFile(fs, target.volumePath, bytes, mode);
    }
    return { bytesCopied: bytes.length, replaced: existing !== undefined };
  } catch (error) {
    throw mapMemfsError(error, to, 'write', changed ? 'unknown' : 'none');
  }
}
