import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}\n?$/;

/**
 * The log's argument key, `FILE.key` (64 hex digits and a newline, 0600, never through a link),
 * made with the log when it has none. It keys every `arguments_sha256` of the log (HMAC-SHA256),
 * so only whoever may read it can test a guess at a call's arguments.
 */
export function openArgumentKey(path: string): string {
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    const status = fstatSync(fd);
    if (!status.isFile()) throw new TypeError(`${path} is not a regular file.`);
    if ((status.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    if (status.size === 0) {
      const key = randomBytes(KEY_BYTES).toString('hex');
      const text = `${key}\n`;
      if (writeSync(fd, text, 0, 'latin1') !== text.length) throw new Error(`The argument key ${path} could not be written whole.`);
      return key;
    }
    return readKey(fd, path);
  } finally {
    closeSync(fd);
  }
}

/** Reads the argument key of the log at `logPath` (64 hex digits), to check a record's `arguments_sha256`. */
export function readArgumentKey(logPath: string): string {
  const fd = openSync(`${logPath}.key`, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readKey(fd, `${logPath}.key`);
  } finally {
    closeSync(fd);
  }
}

function readKey(fd: number, path: string): string {
  const bytes = Buffer.alloc(128);
  const text = bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)).toString('latin1');
  if (!KEY_TEXT.test(text)) throw new TypeError(`The argument key ${path} is not 64 hex digits.`);
  return text.slice(0, 64);
}
