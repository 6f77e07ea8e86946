import { providerErrors, type AppendFileOptions, type FileAppend, type WorkspacePath } from '@libos/core';
import { createMissingDirectories } from './make-directory.js';
import { mapMemfsError } from './map-memfs-error.js';
import { checkRegularFile, resolvePath, type Workspace } from './resolve-path.js';
import { NEW_FILE_MODE, writeNewFile } from './write-file.js';

/**
 * Appends at the end of one regular single-link file, writing only the new bytes. The size check,
 * the choice of the empty-file prefix and the write run in one synchronous block, so the size
 * expected is the size appended to. A missing file with `create` is made whole, as `writeFile`
 * with `overwrite: false` makes it.
 */
export function appendFile(workspace: Workspace, path: WorkspacePath, bytes: Uint8Array, options: AppendFileOptions): FileAppend {
  const resolved = resolvePath(workspace, path, { missingParents: options.create });
  if (resolved.segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { leaf } = resolved;
  if (leaf === undefined) {
    if (!options.create) throw providerErrors.notFound(path);
    if (options.expectedSizeBytes !== undefined && options.expectedSizeBytes !== 0) {
      throw providerErrors.sizeConflict(path, options.expectedSizeBytes, null);
    }
    const whole = withPrefix(options.emptyFilePrefix, bytes);
    let changed = false;
    try {
      if (resolved.firstMissing !== -1) {
        createMissingDirectories(workspace, resolved.segments, resolved.firstMissing, resolved.segments.length - 1);
        changed = true;
      }
      writeNewFile(workspace.fs, resolved.volumePath, whole, NEW_FILE_MODE);
    } catch (error) {
      throw mapMemfsError(error, path, 'write', changed ? 'unknown' : 'none');
    }
    return { bytesAppended: whole.length, sizeBytes: whole.length, created: true };
  }
  checkRegularFile(path, leaf);
  const size = Number(leaf.size);
  if (options.expectedSizeBytes !== undefined && options.expectedSizeBytes !== size) {
    throw providerErrors.sizeConflict(path, options.expectedSizeBytes, size);
  }
  const appended = size === 0 ? withPrefix(options.emptyFilePrefix, bytes) : bytes;
  const { O_WRONLY, O_NOFOLLOW } = workspace.fs.constants;
  let written = 0;
  try {
    const fd = workspace.fs.openSync(resolved.volumePath, O_WRONLY | O_NOFOLLOW);
    try {
      // Explicit positions from the size checked: nothing else runs in this block to move the end.
      while (written < appended.length) {
        written += workspace.fs.writeSync(fd, appended, written, appended.length - written, size + written);
      }
    } finally {
      workspace.fs.closeSync(fd);
    }
  } catch (error) {
    throw mapMemfsError(error, path, 'write', written > 0 ? 'unknown' : 'none');
  }
  return { bytesAppended: appended.length, sizeBytes: size + appended.length, created: false };
}

function withPrefix(prefix: Uint8Array | undefined, bytes: Uint8Array): Uint8Array {
  if (prefix === undefined || prefix.length === 0) return bytes;
  const whole = new Uint8Array(prefix.length + bytes.length);
  whole.set(prefix, 0);
  whole.set(bytes, prefix.length);
  return whole;
}
