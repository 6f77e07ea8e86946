import { closeSync, constants, fchmodSync, fstatSync, openSync, writeSync, type PathLike } from 'node:fs';

/** Opens (creating 0600, never through a link) a file of the log for appending; a wider mode is narrowed. */
export function openPrivate(path: PathLike): number {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
  try {
    // A file someone else created with a wider mode is narrowed: a log names every path an agent touched.
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    if (!fstatSync(fd).isFile()) throw new TypeError(`${String(path)} is not a regular file.`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Writes `length` bytes of `bytes`; a short write (rare for a file) is finished from where it stopped. */
export function writeWhole(fd: number, bytes: Buffer, length: number): void {
  let offset = 0;
  while (offset < length) offset += writeSync(fd, bytes, offset, length - offset);
}
