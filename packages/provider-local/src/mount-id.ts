import { closeSync, openSync, readSync } from 'node:fs';
import { type LibosError, providerErrors } from '@libos/core';
import type { Effect, WorkspacePath } from '@libos/core';
import type { OperationContext } from './operation-context.js';

const fdinfo = Buffer.allocUnsafeSlow(1024);
const mountLine = /^mnt_id:\s*(\d+)$/mu;

/**
 * The kernel's mount id of an open fd, from `/proc/self/fdinfo`. Unlike `st_dev` it tells a bind
 * mount of the same filesystem from its parent. Null when the kernel does not report one.
 */
export function mountIdOf(fd: number): number | null {
  let info: number;
  try {
    info = openSync(`/proc/self/fdinfo/${fd}`, 'r');
  } catch (error) {
    // Only a kernel without fdinfo reports no mount id; EMFILE and the like are host failures, not a mount seen.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const length = readSync(info, fdinfo, 0, fdinfo.length, 0);
    const match = mountLine.exec(fdinfo.toString('latin1', 0, length));
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  } finally {
    closeSync(info);
  }
}

/** Whether the directory or file `fd` holds lies on another mount than the workspace root. */
export function isOtherMount(context: OperationContext, fd: number): boolean {
  return mountIdOf(fd) !== context.root.mountId;
}

/**
 * Refuses, like a junction, what `fd` holds when it is on another mount than the root (bind mounts
 * of the same filesystem included). Nothing below a mount point shares the root's mount id, so a
 * handle reached through one is refused too.
 */
export function refuseOtherMount(context: OperationContext, fd: number, path: WorkspacePath, effect: Effect = 'none'): void {
  if (isOtherMount(context, fd)) throw mountRefusal(path, effect);
}

/** The refusal of a mount point inside the workspace. */
export function mountRefusal(path: WorkspacePath, effect: Effect = 'none'): LibosError {
  return providerErrors.symlinkRefused(path, path, { effect });
}
