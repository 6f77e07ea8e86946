import { fstatSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hold } from './host-lock.js';
import type { HostLock } from './host-lock.js';

/**
 * Locks one name in one directory against every libOS runtime on the host, for the few system
 * calls between a check and the change it guards (a hash check and the rename, an lstat and the
 * unlink). The key is the directory's identity, not a path, so two runtimes whose roots differ
 * still meet on the same name, and a renamed directory keeps its key.
 */
export async function lockName(directoryFd: number, name: string, beforeWait?: () => void): Promise<HostLock> {
  const directory = fstatSync(directoryFd);
  const key = createHash('sha256').update(`${directory.dev}:${directory.ino}:`).update(name).digest('hex').slice(0, 40);
  return hold(`libos-name-${key}`, undefined, beforeWait);
}
