// The write path of the provider before staged writes (main at 3b598db, provider-local/src/
// write-file.ts and walk.ts), kept here as the baseline the new one is measured against: walk by
// O_PATH handles through /proc/self/fd, probe the target, write a temporary beside it, fsync,
// check the target again, rename by name, fsync the directory. Replacement only, as benchmarked.
import { closeSync, constants, fchmodSync, fstatSync, fsync, lstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const O_PATH = 0o10000000;
const DIRECTORY_HANDLE = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const ENTRY_HANDLE = O_PATH | constants.O_NOFOLLOW;
const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY;
const REOPEN_DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY;
const named = (fd, name) => `/proc/self/fd/${fd}/${name}`;
const flush = (fd) => new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));

/** Opens the root like the provider does, for the baseline's own walks. */
export function openBaselineRoot(root) {
  const fd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  fstatSync(fd);
  return fd;
}

/** Replaces `path` (root-relative, existing) with `bytes`, exactly as the previous provider did. */
export async function previousWriteFile(rootFd, path, bytes) {
  const segments = path.split('/');
  fstatSync(rootFd); // the root-is-gone check
  let directory = rootFd;
  for (const name of segments.slice(0, -1)) {
    const next = openSync(named(directory, name), DIRECTORY_HANDLE);
    if (directory !== rootFd) closeSync(directory);
    directory = next;
  }
  const leaf = segments.at(-1);
  try {
    const current = openSync(named(directory, leaf), ENTRY_HANDLE);
    try {
      const status = fstatSync(current);
      if (!status.isFile() || status.nlink > 1) throw new Error('not a single file');
      const target = named(directory, leaf);
      const temporary = named(directory, `.libos-write-${randomBytes(8).toString('hex')}`);
      const fd = openSync(temporary, CREATE_EXCLUSIVE, 0o600);
      try {
        let written = 0;
        while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, written);
        fchmodSync(fd, status.mode & 0o1777);
        await flush(fd);
        const again = fstatSync(current);
        if (!again.isFile() || again.nlink > 1) throw new Error('changed');
        const now = lstatSync(target);
        if (now.dev !== status.dev || now.ino !== status.ino) throw new Error('replaced');
        renameSync(temporary, target);
        const directoryFd = openSync(`/proc/self/fd/${directory}`, REOPEN_DIRECTORY);
        try {
          await flush(directoryFd);
        } finally {
          closeSync(directoryFd);
        }
      } finally {
        closeSync(fd);
      }
    } finally {
      closeSync(current);
    }
  } finally {
    if (directory !== rootFd) closeSync(directory);
  }
}
