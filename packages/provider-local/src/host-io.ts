import { closeSync, fsync, openSync, writeSync } from 'node:fs';
import { REOPEN_DIRECTORY } from './host-flags.js';
import { hostCode } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';

/** Flushes an fd to stable storage off the main thread; fsync can take milliseconds on a disk. */
export function flush(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Flushes a pinned directory, making a rename or creation inside it durable. A directory the
 * provider may write but not read (mode 0o333 for a non-root user) cannot be opened to fsync: the
 * file's own bytes are already flushed, so the write stands rather than failing after the fact.
 */
export async function flushDirectory(context: OperationContext, directoryFd: number): Promise<void> {
  let fd: number;
  try {
    fd = openSync(context.paths.of(directoryFd), REOPEN_DIRECTORY);
  } catch (error) {
    if (hostCode(error) === 'EACCES') return;
    throw error;
  }
  try {
    await flush(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes every byte, looping over short writes. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, written);
}
