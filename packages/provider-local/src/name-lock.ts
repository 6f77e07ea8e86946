import { fstatSync } from 'node:fs';
import { hash } from 'node:crypto';
import { LibosError } from '@libos/core';
import { hold } from './host-lock.js';
import type { HostLock } from './host-lock.js';
import type { StagingArea } from './staging-area.js';
import { LOCK_PREFIX } from './staging-area.js';

/** The identity of a directory as the lock key needs it: its device and inode numbers. */
export interface DirectoryIdentity {
  readonly dev: number;
  readonly ino: number;
}

/**
 * Locks one name in one directory against every libOS runtime on this root, from a check to the
 * change it guards (a hash check and the rename, an lstat and the unlink). The lock is a link in
 * the owner-only staging directory (see `host-lock.ts`), so no other user can take or block it,
 * and runtimes in different network namespaces that share the directory meet on it. A write takes
 * it while its bytes flush, so it costs the write no time of its own, and a contender waits for
 * that flush (it would wait for the disk anyway: its own write of the name comes after). The key is
 * the directory's identity, not a path, so a renamed directory keeps its key. `directory` is a held
 * fd, or that directory's identity when the caller already knows it (the pinned root does).
 */
export async function lockName(
  staging: StagingArea,
  directory: number | DirectoryIdentity,
  name: string,
  beforeWait?: () => void,
): Promise<HostLock> {
  const { dev, ino } = typeof directory === 'number' ? fstatSync(directory) : directory;
  const key = `${LOCK_PREFIX}${hash('sha256', `${dev}:${ino}:${name}`, 'hex').slice(0, 40)}`;
  const place = staging.lockPlace();
  try {
    return await hold(place, key, undefined, beforeWait);
  } catch (error) {
    // A host process removed the staging directory: make it again, once.
    if (!(LibosError.is(error) && error.details?.host_code === 'ENOENT')) throw error;
    return hold(staging.lockPlace(place), key, undefined, beforeWait);
  }
}
