import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_CLOEXEC;
const OPEN_DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_CLOEXEC;

const flush = (fd) => new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));

/**
 * The floor of a replacing write in plain Node: a temporary file beside the target, written,
 * renamed over it. `durable` adds what makes it survive a crash (fsync of the file before the
 * rename, fsync of the directory after), with fsync off the main thread as a server would.
 */
export async function plainNodeWrite(target, bytes, durable) {
  const temporary = join(dirname(target), `.plain-${randomBytes(8).toString('hex')}`);
  const fd = openSync(temporary, CREATE_EXCLUSIVE, 0o666);
  try {
    writeSync(fd, bytes);
    if (durable) await flush(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, target);
  if (durable) {
    const directory = openSync(dirname(target), OPEN_DIRECTORY);
    try {
      await flush(directory);
    } finally {
      closeSync(directory);
    }
  }
}
