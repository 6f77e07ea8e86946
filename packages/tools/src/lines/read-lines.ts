import { LibosError, type WorkspacePath } from '@libos/core';
import type { ByteSource } from './byte-source.js';
import { type LineFormat, boundaryAfter, boundaryBefore, endsWithNewline, lineStartsIn, readsBackwards } from './line-format.js';

/** The bytes a line read returns, where they start, and the numbers of their first and last lines when known. */
export interface LinesRead {
  readonly bytes: Uint8Array;
  readonly offset: number;
  readonly truncated: boolean;
  readonly startLine: number | null;
  readonly endLine: number | null;
}

// Bytes per read while scanning for a line: memory stays this whatever the file and the bound.
const SCAN_CHUNK_BYTES = 1 << 20;

/** What a line read needs besides the bytes: the format, the bounds, the path for errors. */
export interface LineReadOptions {
  readonly format: LineFormat;
  readonly maxBytes: number;
  readonly scanMaxBytes: number;
  readonly path: WorkspacePath;
}

/**
 * Whole lines from line `line` on, at most `maxBytes` bytes: a cut falls after the last whole line
 * that fits, or (one line longer than the bound) on the last character boundary. Reaching the line
 * reads at most `scanMaxBytes` bytes, else `too_large`. A line past the end gives no bytes.
 */
export async function readFromLine(source: ByteSource, line: number, options: LineReadOptions): Promise<LinesRead> {
  const { format, maxBytes } = options;
  const start = line === 1 ? 0 : await findLineStart(source, line, options);
  if (start === null) return { bytes: new Uint8Array(0), offset: 0, truncated: false, startLine: line, endLine: line - 1 };
  const range = await source.read(start, maxBytes);
  const truncated = range.offset + range.bytes.length < range.sizeBytes;
  let bytes = range.bytes;
  if (truncated) {
    const starts = lineStartsIn(format, bytes, range.offset);
    const lastWhole = starts.length === 0 ? 0 : starts[starts.length - 1]!;
    bytes = bytes.subarray(0, lastWhole > 0 ? lastWhole : boundaryBefore(format, bytes, codecAt(format, range.offset)));
  }
  return { bytes, offset: range.offset, truncated, startLine: line, endLine: lastLineNumber(format, bytes, range.offset, line) };
}

/**
 * The last `lines` lines, at most `maxBytes` bytes: a cut keeps the end, from the first whole line
 * that fits (or the first character boundary inside one line longer than the bound). Where the
 * encoding reads backwards only the end of the file is read, and line numbers are known only when
 * that end is the whole file; otherwise the file is scanned (at most `scanMaxBytes`, else
 * `too_large`) and the numbers are absolute.
 */
export async function readTail(source: ByteSource, lines: number, options: LineReadOptions): Promise<LinesRead> {
  if (!readsBackwards(options.format) || !source.seeks) return scanTail(source, lines, options);
  const { format, maxBytes } = options;
  const range = await source.readEnd(maxBytes + format.unit);
  const size = range.sizeBytes;
  // UTF-16 units are aligned from the start of the file, so a window starting at an odd byte drops it.
  const skew = format.unit === 2 ? range.offset % 2 : 0;
  const offset = range.offset + skew;
  const window = range.bytes.subarray(skew);
  const starts = lineStartsIn(format, window, offset)
    .map((index) => offset + index)
    .filter((position) => position < size);
  if (offset === 0 && size > 0) starts.unshift(0);
  const wanted = starts.length >= lines ? starts[starts.length - lines]! : offset === 0 ? 0 : null;
  let start: number;
  let truncated = false;
  if (wanted !== null && size - wanted <= maxBytes) start = wanted;
  else {
    truncated = true;
    const floor = size - maxBytes;
    start = starts.find((position) => position >= floor) ?? floor + boundaryAfter(format, window.subarray(floor - offset), floor);
  }
  const bytes = window.subarray(start - offset);
  if (offset !== 0) return { bytes, offset: start, truncated, startLine: null, endLine: null };
  const startLine = lineStartsIn(format, window.subarray(0, start), 0).length + 1;
  return { bytes, offset: start, truncated, startLine, endLine: lastLineNumber(format, bytes, start, startLine) };
}

// The tail of an encoding without visible character boundaries: one pass keeps the starts of the
// last lines (never more than the bound can return), then the tail is read from the one it needs.
async function scanTail(source: ByteSource, lines: number, options: LineReadOptions): Promise<LinesRead> {
  const { format, maxBytes } = options;
  // One more than needed: a newline at the very end adds a start that is dropped below.
  const keep = Math.min(lines, maxBytes + 2) + 1;
  const kept: number[] = [0];
  let count = 1;
  const size = await scan(source, options, (starts, offset) => {
    for (const index of starts) kept.push(offset + index);
    count += starts.length;
    // Dropped in batches, so keeping the last starts costs O(1) per line.
    if (kept.length > 2 * keep) kept.splice(0, kept.length - keep);
    return false;
  });
  if (kept.length > keep) kept.splice(0, kept.length - keep);
  // A newline at the very end starts no line; an empty file holds none.
  if (kept[kept.length - 1] === size) {
    kept.pop();
    count--;
  }
  const first = count - kept.length;
  let index = count >= lines ? (lines <= kept.length ? kept.length - lines : -1) : 0;
  let truncated = index === -1 || size - (kept[index] ?? size) > maxBytes;
  if (truncated) {
    const floor = size - maxBytes;
    const fitting = kept.findIndex((position) => position >= floor);
    index = fitting === -1 ? kept.length - 1 : fitting;
  }
  const start = kept[index] ?? 0;
  const range = await source.read(start, maxBytes);
  let bytes = range.bytes;
  if (range.offset + bytes.length < range.sizeBytes) {
    truncated = true;
    bytes = bytes.subarray(0, boundaryBefore(format, bytes, codecAt(format, start)));
  }
  const startLine = size === 0 ? 1 : first + index + 1;
  return { bytes, offset: start, truncated, startLine, endLine: lastLineNumber(format, bytes, start, startLine) };
}

async function findLineStart(source: ByteSource, line: number, options: LineReadOptions): Promise<number | null> {
  let seen = 0;
  let found: number | null = null;
  await scan(source, options, (starts, offset) => {
    if (seen + starts.length < line - 1) {
      seen += starts.length;
      return false;
    }
    found = offset + starts[line - 2 - seen]!;
    return true;
  });
  return found;
}

/**
 * Reads the file from byte 0 in chunks, handing each chunk's line starts to `visit` until it returns
 * true or the file ends; returns the bytes scanned. Past `scanMaxBytes` without an answer: too_large.
 */
async function scan(source: ByteSource, options: LineReadOptions, visit: (starts: number[], offset: number) => boolean): Promise<number> {
  const { format, scanMaxBytes, path } = options;
  let offset = 0;
  for (;;) {
    const room = Math.min(SCAN_CHUNK_BYTES, scanMaxBytes - offset);
    const want = room - (room % format.unit);
    if (want <= 0) {
      throw new LibosError('too_large', `Reaching that line of "${path}" needs more than ${scanMaxBytes} bytes (bounds.read_scan_max_bytes).`, {
        details: { path, max_bytes: scanMaxBytes },
      });
    }
    const range = await source.read(offset, want);
    if (visit(lineStartsIn(format, range.bytes, offset), offset)) return offset + range.bytes.length;
    offset += range.bytes.length;
    if (range.bytes.length < want || offset >= range.sizeBytes) return offset;
  }
}

function lastLineNumber(format: LineFormat, bytes: Uint8Array, offset: number, startLine: number): number {
  if (bytes.length === 0) return startLine - 1;
  const newlines = lineStartsIn(format, bytes, offset).length;
  return startLine + newlines - (endsWithNewline(format, bytes) ? 1 : 0);
}

function codecAt(format: LineFormat, offset: number) {
  return offset === 0 ? format.startCodec : format.middleCodec;
}
