import { closeSync, fstatSync, openSync, realpathSync, statSync, statfsSync } from 'node:fs';
import { LibosError } from '@libos/core';
import { hostCode } from './map-node-error.js';
import { mountIdOf } from './mount-id.js';
import { OPEN_ROOT } from './host-flags.js';

const PROC_SUPER_MAGIC = 0x9fa0;

/**
 * The workspace root, opened once and held for the provider's lifetime. Every path the provider
 * touches is resolved from this fd, so renaming or replacing the root's host path changes nothing.
 * Operations in flight hold a reference, so `close` never closes an fd a queued call still names.
 */
export class PinnedRoot {
  readonly fd: number;
  readonly dev: number;
  readonly ino: number;
  /** The root's mount id (`/proc/self/fdinfo`); the root itself may be a mount point. */
  readonly mountId: number;
  /** The root's host path as configured, resolved once at startup (`hostPath` asks the kernel instead). */
  readonly hostPath: string;
  private inFlight = 0;
  private closed = false;
  private drained: (() => void) | undefined;
  private closing: Promise<void> | undefined;

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

  /** Marks one operation in flight; fails once the provider is closed. */
  acquire(): void {
    if (this.closed) throw new LibosError('provider_failure', 'The provider is closed.', { effect: 'none' });
    this.inFlight++;
  }

  /** Ends one operation; the last one out after `close` closes the root fd. */
  release(): void {
    this.inFlight--;
    if (this.closed && this.inFlight === 0) this.drained?.();
  }

  /** Refuses new operations, waits for those in flight, then closes the root fd. Idempotent. */
  close(): Promise<void> {
    // Every caller gets the same promise, so none returns while the fd is still open.
    this.closing ??= this.drainAndClose();
    return this.closing;
  }

  private async drainAndClose(): Promise<void> {
    this.closed = true;
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
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
