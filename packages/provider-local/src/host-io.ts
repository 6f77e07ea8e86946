import { closeSync, fsync, openSync, writeSync } from 'node:fs';
import { REOPEN_DIRECTORY } from './host-flags.js';
import type { OperationContext } from './operation-context.js';

/** Flushes an fd to stable storage off the main thread; fsync can take milliseconds on a disk. */
export function flush(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/** Flushes a pinned directory, making a rename or creation inside it durable. */
export async function flushDirectory(context: OperationContext, directoryFd: number): Promise<void> {
  const fd = openSync(context.paths.of(directoryFd), REOPEN_DIRECTORY);
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
