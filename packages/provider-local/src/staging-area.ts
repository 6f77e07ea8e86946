import { closeSync, fstatSync, mkdirSync, openSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { LibosError } from '@libos/core';
import type { FdPaths } from './fd-paths.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { hostCode } from './map-node-error.js';
import type { PinnedRoot } from './pinned-root.js';
import { STAGING_NAME } from './reserved-names.js';

/**
 * The directory under the root where writes stage their temporaries, owner-only (0700), opened
 * lazily by an O_NOFOLLOW handle and held until the provider closes. One place for every
 * temporary means one name to hide and one directory to sweep at start, and nothing of a write in
 * progress ever sits in a directory the tools can list. Being under the root, it is on the root's
 * mount, and no mount inside the workspace is ever entered, so a rename from it never crosses one.
 */
export class StagingArea {
  /** This provider's writer id: the prefix of its temporaries' names. */
  readonly writerId = randomBytes(8).toString('hex');
  private held: number | undefined;
  private counter = 0;

  constructor(
    private readonly root: PinnedRoot,
    private readonly paths: FdPaths,
  ) {}

  /** The staging directory's handle, made on first use; `refresh` reopens it after a host removed it. */
  fd(refresh = false): number {
    if (refresh && this.held !== undefined) {
      closeSync(this.held);
      this.held = undefined;
    }
    this.held ??= this.open();
    return this.held;
  }

  /** The held handle, or undefined when no write has needed the staging directory yet. */
  heldFd(): number | undefined {
    return this.held;
  }

  /** A fresh temporary name: this writer's id, then a sequence number and random bytes. */
  nextName(): string {
    return `${this.writerId}.${(this.counter++).toString(36)}.${randomBytes(4).toString('hex')}`;
  }

  /** Closes the held handle; the provider is closing. */
  close(): void {
    if (this.held !== undefined) closeSync(this.held);
    this.held = undefined;
  }

  private open(): number {
    const at = this.paths.named(this.root.fd, STAGING_NAME);
    try {
      mkdirSync(at, 0o700);
    } catch (error) {
      if (hostCode(error) !== 'EEXIST') throw unavailable(hostCode(error));
    }
    let fd: number;
    try {
      fd = openSync(at, DIRECTORY_HANDLE);
    } catch (error) {
      throw unavailable(hostCode(error));
    }
    // Someone else's directory (planted by another user) could let them read or swap temporaries.
    const status = fstatSync(fd);
    const uid = process.geteuid?.();
    if (uid !== undefined && status.uid !== uid) {
      closeSync(fd);
      throw new LibosError('provider_failure', 'The staging directory of the workspace belongs to another user.', {
        effect: 'none',
        details: { path: STAGING_NAME },
      });
    }
    return fd;
  }
}

function unavailable(code: string | undefined): LibosError {
  return new LibosError('provider_failure', 'The provider cannot make or open its staging directory at the workspace root.', {
    effect: 'none',
    details: { path: '.', host_code: code ?? null },
  });
}
