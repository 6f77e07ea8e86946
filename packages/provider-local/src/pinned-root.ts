import { closeSync, fstatSync, openSync, realpathSync, statSync, statfsSync } from 'node:fs';
import { LibosError } from '@libos/core';
import { hostCode } from './map-node-error.js';
import { mountIdOf } from './mount-id.js';
import { OPEN_ROOT } from './host-flags.js';

const PROC_SUPER_MAGIC = 0x9fa0;

/**
 * The workspace root, opened once and held for the provider's lifetime. Every path the provider
 * touches is resolved from this fd, so renaming or replacing the root's host path changes nothing.
 * The provider's call gate (the provider kit's `createCallGate`) closes it only once no call is in flight.
 */
export class PinnedRoot {
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  /** The root's mount id (`/proc/self/fdinfo`); the root itself may be a mount point. */
  readonly mountId: number;
  /** The root's host path as configured, resolved once at startup (`hostPath` asks the kernel instead). */
  readonly hostPath: string;

  constructor(root: string, procFdDirectory: string) {
    let fd: number;
    try {
      this.hostPath = realpathSync(root);
      fd = openSync(this.hostPath, OPEN_ROOT);
    } catch (error) {
      throw startFailure(`The workspace root cannot be opened as a directory (${hostCode(error) ?? 'unknown error'}).`);
    }
    try {
      const held = fstatSync(fd);
      verifyProcFd(procFdDirectory, fd, held.dev, held.ino);
      const mountId = mountIdOf(fd);
      // Without mount ids a bind mount inside the workspace could not be told apart: fail closed.
      if (mountId === null) throw startFailure('The kernel does not report mount ids in /proc/self/fdinfo.');
      this.mountId = mountId;
      this.fd = fd;
      this.dev = held.dev;
      this.ino = held.ino;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Closes the root fd; the caller guarantees no call still uses it. */
  close(): void {
    closeSync(this.fd);
  }
}

// An overmounted or fake /proc would make every `/proc/self/fd/<fd>/<name>` path mean something
// else, so the provider refuses to start unless the magic links demonstrably lead back to the root.
function verifyProcFd(procFdDirectory: string, fd: number, dev: number, ino: number): void {
  let type: number;
  let seen: { dev: number; ino: number };
  try {
    type = statfsSync(procFdDirectory).type;
    seen = statSync(`${procFdDirectory}/${fd}`);
  } catch (error) {
    throw startFailure(`The fd directory of procfs cannot be inspected (${hostCode(error) ?? 'unknown error'}).`);
  }
  if (type !== PROC_SUPER_MAGIC) {
    throw startFailure('The fd directory is not on a real procfs; the local provider needs /proc/self/fd.');
  }
  if (seen.dev !== dev || seen.ino !== ino) {
    throw startFailure('The root fd does not resolve through /proc/self/fd to the workspace root.');
  }
}

function startFailure(message: string): LibosError {
  return new LibosError('provider_failure', message, { effect: 'none' });
}
