import { readSync } from 'node:fs';
import type { FileRangeRead, ReadFileRangeOptions, WorkspacePath } from '@libos/core';
import { mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';
import { withRegularFile } from './open-regular-file.js';

/**
 * Reads at most `maxBytes` bytes at an offset, or ending `offset` bytes before the end as the
 * opened fd's fstat tells it, with positioned reads: nothing before the range is read, so a tail
 * of a huge file costs only the tail.
 */
export function readFileRange(context: OperationContext, path: WorkspacePath, options: ReadFileRangeOptions): Promise<FileRangeRead> {
  return withRegularFile(context, path, ({ fd, status }) => {
    const size = status.size;
    const end = options.fromEnd === true ? Math.max(0, size - options.offset) : Math.min(size, options.offset + options.maxBytes);
    const start = options.fromEnd === true ? Math.max(0, end - options.maxBytes) : Math.min(size, options.offset);
    const buffer = Buffer.allocUnsafeSlow(end - start);
    let filled = 0;
    try {
      while (filled < buffer.length) {
        const count = readSync(fd, buffer, filled, buffer.length - filled, start + filled);
        if (count === 0) break;
        filled += count;
      }
    } catch (error) {
      throw mapNodeError(error, path);
    }
    return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, filled), offset: start, sizeBytes: size };
  });
}
