import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 4 * 1024 * 1024;
const MAX_LINE = 64 * 1024 * 1024;

/**
 * Calls `onLine` with each line of a file (without its newline) as it reads it in fixed chunks,
 * so memory stays bounded by the chunk and the longest line. Returns whether the file ended with
 * a newline (false also for an empty file's absence of lines). `onLine` returns false to stop.
 * `from` is the byte offset to start at (the start of a line).
 */
export function forEachLine(path: string, onLine: (line: Buffer) => boolean, from = 0): { complete: boolean } {
  const fd = openSync(path, 'r');
  let position = from;
  try {
    let buffer = Buffer.alloc(CHUNK);
    let held = 0;
    for (;;) {
      if (held === buffer.length) {
        if (buffer.length >= MAX_LINE) throw new RangeError(`A line of ${path} is longer than ${MAX_LINE} bytes.`);
        const grown = Buffer.alloc(buffer.length * 2);
        buffer.copy(grown, 0, 0, held);
        buffer = grown;
      }
      const read = readSync(fd, buffer, held, buffer.length - held, position);
      if (read === 0) return { complete: held === 0 };
      position += read;
      const end = held + read;
      let start = 0;
      for (let newline = buffer.indexOf(0x0a, held); newline !== -1 && newline < end; newline = buffer.indexOf(0x0a, start)) {
        if (!onLine(buffer.subarray(start, newline))) return { complete: true };
        start = newline + 1;
        if (start >= end) break;
      }
      buffer.copy(buffer, 0, start, end);
      held = end - start;
    }
  } finally {
    closeSync(fd);
  }
}
