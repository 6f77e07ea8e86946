import { providerErrors, type FileRead, type ReadFileOptions, type WorkspacePath } from '@libos/core';
import type { IFs } from 'memfs';
import { mapMemfsError } from './map-memfs-error.js';
import { checkRegularFile, resolvePath, type Workspace } from './resolve-path.js';

/** Reads at most `maxBytes + 1` bytes from byte 0; the extra byte only decides `truncated`. */
export function readFile(workspace: Workspace, path: WorkspacePath, options: ReadFileOptions): FileRead {
  const { leaf, volumePath } = resolvePath(workspace, path);
  checkRegularFile(path, leaf);
  const { O_RDONLY, O_NOFOLLOW } = workspace.fs.constants;
  try {
    const fd = workspace.fs.openSync(volumePath, O_RDONLY | O_NOFOLLOW);
    try {
      // memfs opens a directory for reading without complaint, so the fd itself is checked too.
      const stats = workspace.fs.fstatSync(fd);
      if (!stats.isFile()) throw providerErrors.notAFile(path, stats.isDirectory() ? 'directory' : 'other');
      // Sized from fstat so a small file never costs a maxBytes-sized buffer.
      const buffer = readPrefix(workspace.fs, fd, Math.min(options.maxBytes, Number(stats.size)) + 1);
      const truncated = buffer.length > options.maxBytes;
      return { bytes: truncated ? buffer.subarray(0, options.maxBytes) : buffer, truncated };
    } finally {
      workspace.fs.closeSync(fd);
    }
  } catch (error) {
    throw mapMemfsError(error, path, 'read');
  }
}

/** Reads up to `length` bytes from byte 0 of an open file. */
export function readPrefix(fs: IFs, fd: number, length: number): Uint8Array {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const count = fs.readSync(fd, buffer, filled, length - filled, filled);
    if (count === 0) break;
    filled += count;
  }
  return buffer.subarray(0, filled);
}
