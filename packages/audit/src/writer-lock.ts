import { chmodSync, closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, writeSync } from 'node:fs';
import { LibosError } from '@libos/core';
import { lazyOptionalModule } from '@libos/provider-kit';
import type Database from 'better-sqlite3';

// Loaded by the first writer only: verifying or showing a log needs no native addon.
const loadSqlite = lazyOptionalModule<typeof Database>('better-sqlite3', import.meta.url, {
  message: "Writing an audit log takes its writers' lock through SQLite: install better-sqlite3 (npm i better-sqlite3) beside @libos/audit.",
  reason: 'sqlite_unavailable',
});

/** How long a writer waits for the lock, and how long it keeps it idle (docs/audit.md, "Several writers"). */
export interface LeaseTiming {
  /** Milliseconds a write waits for another writer to let go before it fails `writer_busy`. */
  readonly waitMs: number;
}

// The holder looks this often whether it wrote since the last look, or whether someone waits.
const TICK_MS = 25;
// A holder that let go for a waiter takes the lock again no sooner than this (the waiter polls faster).
const GRACE_MS = 50;
const POLL_MS = 5;
// Batches written between two looks for a waiter, when the tick cannot run (one fstat per look).
const LOOK_EVERY = 64;

/**
 * The lock of a log's writers, held as a lease: taken at a writer's first write and kept while it
 * writes, so a stream of records pays for it once (taking it costs a dozen system calls, more than a
 * record). It is let go after a tick without a write, or at once when another writer waits (a waiter
 * appends a byte to `FILE.wait`, which the holder emptied when it took the lock): the holder then
 * stays away for a grace period, so the waiter gets its turn. Every taking starts a new
 * `generation`: the log may have grown under another writer since.
 */
export interface WriterLease {
  /** Increases every time the lock is taken: a writer re-reads the log's head when it changed. */
  readonly generation: number;
  /** Holds the lock now: true when already held or taken at once, false when another writer has it. */
  hold(): boolean;
  /** Resolves once the lock is held; rejects with `writer_busy` after `waitMs` without it. */
  wait(): Promise<void>;
  /** Keeps the lock held through asynchronous work (a checkpoint's fsyncs) until `unpin`. */
  pin(): void;
  unpin(): void;
  /** Lets go of the lock and closes its files. */
  close(): void;
}

/**
 * Opens the lease of `FILE.lock` (SQLite's POSIX record lock: the kernel drops it when its holder
 * dies, even by SIGKILL, so no stale lock outlives a crashed writer; a second connection in the
 * same process is refused too) and `FILE.wait`, both 0600 and never through a link.
 */
export function openWriterLease(logPath: string, timing: LeaseTiming): WriterLease {
  const sqlite = loadSqlite();
  const lockPath = `${logPath}.lock`;
  createPrivate(lockPath);
  const waitFd = openSync(`${logPath}.wait`, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
  let database: Database.Database;
  try {
    if ((fstatSync(waitFd).mode & 0o077) !== 0) chmodSync(`${logPath}.wait`, 0o600);
    database = new sqlite(lockPath, { timeout: 0 });
  } catch (error) {
    closeSync(waitFd);
    throw error;
  }
  const begin = database.prepare('BEGIN EXCLUSIVE');
  const commit = database.prepare('COMMIT');
  // Set at the first taking: it reads the file, which another writer's lock may forbid at opening.
  let journalInMemory = false;
  let held = false;
  let used = false;
  let pins = 0;
  let awayUntil = 0;
  let waiting: Promise<void> | undefined;
  let closed = false;
  let batches = 0;
  const one = Buffer.from([0x2e]);

  const release = () => {
    if (!held) return;
    held = false;
    commit.run();
  };
  // Lets go for a writer that waits, and stays away for a grace period; true when it did.
  const yieldToWaiter = () => {
    if (pins > 0 || fstatSync(waitFd).size === 0) return false;
    awayUntil = Date.now() + GRACE_MS;
    release();
    return true;
  };
  const tick = setInterval(() => {
    if (!held || pins > 0) return;
    if (!yieldToWaiter() && !used) release();
    used = false;
  }, TICK_MS);
  tick.unref();

  const lease: WriterLease = {
    generation: 0,
    hold() {
      if (closed) throw new Error(`The audit log ${logPath} is closed.`);
      if (held) {
        used = true;
        // A writer whose calls never leave the microtask queue never runs the tick: it looks here too.
        batches += 1;
        return batches % LOOK_EVERY !== 0 || !yieldToWaiter();
      }
      if (awayUntil > 0 && Date.now() < awayUntil) return false;
      try {
        // No journal file beside the log: the lock's database never changes, so it needs none.
        if (!journalInMemory) database.pragma('journal_mode = MEMORY');
        journalInMemory = true;
        begin.run();
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
        // Says "someone waits" to the holder, which empties the file when it next takes the lock.
        writeSync(waitFd, one);
        return false;
      }
      held = true;
      used = true;
      (lease as { generation: number }).generation += 1;
      ftruncateSync(waitFd, 0);
      return true;
    },
    wait() {
      if (lease.hold()) return Promise.resolve();
      waiting ??= new Promise<void>((resolve, reject) => {
        const deadline = Date.now() + timing.waitMs;
        const poll = () => {
          let taken: boolean;
          try {
            taken = lease.hold();
          } catch (error) {
            waiting = undefined;
            reject(error);
            return;
          }
          if (taken) {
            waiting = undefined;
            resolve();
          } else if (Date.now() >= deadline) {
            waiting = undefined;
            reject(
              new LibosError(
                'provider_failure',
                `The audit log ${logPath} is held by another writer that has not let go of it for ${timing.waitMs / 1000} s (an older libOS, or a stuck process): nothing was recorded.`,
                { effect: 'none', details: { reason: 'writer_busy' } },
              ),
            );
          } else setTimeout(poll, POLL_MS);
        };
        setTimeout(poll, POLL_MS);
      });
      return waiting;
    },
    pin() {
      pins += 1;
    },
    unpin() {
      pins -= 1;
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(tick);
      try {
        release();
      } finally {
        database.close();
        closeSync(waitFd);
      }
    },
  };
  return lease;
}

// Created 0600 by us, never through a link, before SQLite opens it with its own default mode. An
// existing one is never opened here: closing a descriptor of it would drop every lock this process
// holds on it (POSIX record locks are per process), another writer's in this process included.
function createPrivate(path: string): void {
  try {
    closeSync(openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const status = lstatSync(path);
  if (!status.isFile()) throw new TypeError(`${path} is not a regular file.`);
  if ((status.mode & 0o077) !== 0) chmodSync(path, 0o600);
}
