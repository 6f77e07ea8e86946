import { fstatSync, ftruncateSync, readSync } from 'node:fs';

const CHUNK = 64 * 1024;

/**
 * The last complete line of an open file (without its newline), or undefined when it has none. A
 * torn last line (a writer killed mid-write) is cut off first: its call was never answered, since
 * a record is written whole before its answer.
 */
export function lastLineOf(fd: number, maxLineBytes: number): Buffer | undefined {
  const size = fstatSync(fd).size;
  const end = lastNewline(fd, size, maxLineBytes);
  if (end === -1) {
    if (size > 0) ftruncateSync(fd, 0);
    return undefined;
  }
  if (end + 1 < size) ftruncateSync(fd, end + 1);
  const start = lastNewline(fd, end, maxLineBytes) + 1;
  const line = Buffer.alloc(end - start);
  readSync(fd, line, 0, line.length, start);
  return line;
}

// The offset of the last newline before `before`, or -1; gives up past maxLineBytes of line.
function lastNewline(fd: number, before: number, maxLineBytes: number): number {
  const buffer = Buffer.alloc(CHUNK);
  let position = before;
  const floor = Math.max(0, before - maxLineBytes - 1);
  while (position > floor) {
    const start = Math.max(floor, position - CHUNK);
    const length = position - start;
    readSync(fd, buffer, 0, length, start);
    const index = buffer.subarray(0, length).lastIndexOf(0x0a);
    if (index !== -1) return start + index;
    position = start;
  }
  if (floor > 0) throw new Error('The last line of the log is longer than any record.');
  return -1;
}
