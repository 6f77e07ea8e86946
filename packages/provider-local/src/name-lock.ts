import { fstatSync } from 'node:fs';
import { hash } from 'node:crypto';
import { hold } from './host-lock.js';
import type { HostLock } from './host-lock.js';

/** The identity of a directory as the lock key needs it: its device and inode numbers. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * Locks one name in one directory against every libOS runtime on the host, from a check to the
 * change it guards (a hash check and the rename, an lstat and the unlink). A write takes it while
 * its bytes flush, so the bind costs it no time of its own, and a contender waits for that flush
 * (it would wait for the disk anyway: its own write of the name comes after). The key is the
 * directory's identity, not a path, so two runtimes whose roots differ still meet on the same
 * name, and a renamed directory keeps its key. `directory` is a held fd, or that directory's
 * identity when the caller already knows it (the pinned root does).
 */
export async function lockName(directory: number | DirectoryIdentity, name: string, beforeWait?: () => void): Promise<HostLock> {
  const { dev, ino } = typeof directory === 'number' ? fstatSync(directory) : directory;
  const key = hash('sha256', `${dev}:${ino}:${name}`, 'hex').slice(0, 40);
  return hold(`libos-name-${key}`, undefined, beforeWait);
}
