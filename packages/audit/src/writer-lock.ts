import { closeSync, constants, openSync } from 'node:fs';
import { LibosError } from '@libos/core';
import { lazyOptionalModule } from '@libos/provider-kit';
import type Database from 'better-sqlite3';

// Loaded by the first writer only: verifying or showing a log needs no native addon.
const loadSqlite = lazyOptionalModule<typeof Database>('better-sqlite3', import.meta.url, {
  message: 'Writing an audit log takes its one-writer lock through SQLite: install better-sqlite3 (npm i better-sqlite3) beside @libos/audit.',
  reason: 'sqlite_unavailable',
});

/** The one-writer lock of a log; `release` frees it (the OS frees it too when the process dies). */
export interface WriterLock {
  release(): void;
}

/**
 * Takes the exclusive lock of `FILE.lock`. SQLite's lock is a POSIX record lock, which the kernel
 * drops when its holder dies (even by SIGKILL), so no stale lock outlives a crashed writer, and
 * which a second connection in the same process is refused too. Throws `invalid_arguments` naming
 * the file when another writer holds it.
 */
export function takeWriterLock(logPath: string): WriterLock {
  const sqlite = loadSqlite();
  const lockPath = `${logPath}.lock`;
  // Created 0600 by us, never through a link, before SQLite opens it with its own default mode.
  closeSync(openSync(lockPath, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600));
  const database = new sqlite(lockPath, { timeout: 0 });
  try {
    database.pragma('journal_mode = MEMORY');
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    database.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new LibosError('invalid_arguments', `The audit log ${logPath} is already being written by another writer.`, {
        details: { reason: 'writer_busy' },
        cause: error,
      });
    }
    throw error;
  }
  return {
    release() {
      if (database.open) database.close();
    },
  };
}
