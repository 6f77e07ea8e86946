import { providerErrors, type FileRangeRead, type ReadFileRangeOptions, type WorkspacePath } from '@libos/core';
import { mapMemfsError } from './map-memfs-error.js';
import { checkRegularFile, resolvePath, type Workspace } from './resolve-path.js';

/** Reads at most `maxBytes` bytes at an offset (or ending `offset` bytes before the end), and nothing else. */
export function readFileRange(workspace: Workspace, path: WorkspacePath, options: ReadFileRangeOptions): FileRangeRead {
  const { leaf, volumePath } = resolvePath(workspace, path);
  checkRegularFile(path, leaf);
  const { fs } = workspace;
  try {
    const fd = fs.openSync(volumePath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) throw providerErrors.notAFile(path, stats.isDirectory() ? 'directory' : 'other');
      const size = Number(stats.size);
      const end = options.fromEnd === true ? Math.max(0, size - options.offset) : Math.min(size, options.offset + options.maxBytes);
      const start = options.fromEnd === true ? Math.max(0, end - options.maxBytes) : Math.min(size, options.offset);
      const buffer = new Uint8Array(end - start);
      let filled = 0;
      while (filled < buffer.length) {
        const count = fs.readSync(fd, buffer, filled, buffer.length - filled, start + filled);
        if (count === 0) break;
        filled += count;
      }
      return { bytes: buffer.subarray(0, filled), offset: start, sizeBytes: size };
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw mapMemfsError(error, path, 'read');
  }
}
