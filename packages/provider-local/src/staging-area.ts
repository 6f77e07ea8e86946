import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, opendirSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { LibosError, ROOT_PATH } from '@libos/core';
import type { CallGate } from '@libos/core';
import type { FdPaths } from './fd-paths.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { tryHold } from './host-lock.js';
import type { HostLock } from './host-lock.js';
import { hostCode } from './map-node-error.js';
import type { PinnedRoot } from './pinned-root.js';
import { STAGING_NAME } from './reserved-names.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

/**
 * The directory under the root where writes stage their temporaries, owner-only (0700), opened
 * lazily by an O_NOFOLLOW handle and held until the provider closes. One place for every
 * temporary means one name to hide and one directory to sweep at start, and nothing of a write in
 * progress ever sits in a directory the tools can list. Being under the root, it is on the root's
 * mount, and no mount inside the workspace is ever entered, so a rename from it never crosses one.
 *
 * Each provider is one writer: it holds the host-wide name `libos-writer-<id>` for its lifetime,
 * and its temporaries are named `<id>.<n>.<random>`. At start it sweeps the temporaries of every
 * writer whose name nobody holds any more (the kernel let go when that process died), and leaves
 * those of live writers alone.
 */
export class StagingArea {
  /** This provider's writer id: the prefix of its temporaries' names. */
  readonly writerId = randomBytes(8).toString('hex');
  private held: number | undefined;
  private counter = 0;
  // Random bytes for names, drawn 256 at a time: one call into the CSPRNG per 64 temporaries.
  private entropy = Buffer.alloc(0);
  private drawn = 0;
  private readonly registration: HostLock | null;
  private readonly sweeping: Promise<void>;

  constructor(
    private readonly root: PinnedRoot,
    private readonly paths: FdPaths,
    gate: CallGate,
  ) {
    this.registration = tryHold(writerLockName(this.writerId));
    // The sweep is a call in flight of its own, so closing waits for it.
    const leave = gate.enter(ROOT_PATH);
    this.sweeping = this.sweep().finally(leave);
  }

  /** Fails unless this writer's name is held; no temporary is made without it. */
  ready(): void {
    if (this.registration === null) {
      throw new LibosError('provider_failure', 'The provider could not take its writer name.', { effect: 'none' });
    }
  }

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
    if (this.drawn + 4 > this.entropy.length) {
      this.entropy = randomBytes(256);
      this.drawn = 0;
    }
    const random = this.entropy.toString('hex', this.drawn, (this.drawn += 4));
    return `${this.writerId}.${(this.counter++).toString(36)}.${random}`;
  }

  /** Waits for the start-up sweep, gives up the writer name and closes the handle; the provider is closing. */
  async close(): Promise<void> {
    await this.sweeping;
    this.registration?.release();
    if (this.held !== undefined) closeSync(this.held);
    this.held = undefined;
  }

  // Best effort: a temporary it cannot remove stays unreachable, and the next start tries again.
  private async sweep(): Promise<void> {
    let fd: number;
    try {
      fd = openSync(this.paths.named(this.root.fd, STAGING_NAME), DIRECTORY_HANDLE);
    } catch {
      return;
    }
    try {
      const dead = new Map<string, boolean>();
      let seen = 0;
      const directory = opendirSync(this.paths.of(fd));
      try {
        for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
          const writer = temporaryName.exec(entry.name)?.[1];
          if (writer === undefined || writer === this.writerId) continue;
          let isDead = dead.get(writer);
          if (isDead === undefined) {
            const probe = tryHold(writerLockName(writer));
            probe?.release();
            isDead = probe !== null;
            dead.set(writer, isDead);
          }
          if (isDead) removeFile(this.paths.named(fd, entry.name));
          if (++seen % ENTRIES_PER_SLICE === 0) await yieldNow();
        }
      } finally {
        directory.closeSync();
      }
    } catch {
      // The staging directory vanished or cannot be read: nothing to sweep.
    } finally {
      closeSync(fd);
    }
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

const temporaryName = /^([0-9a-f]{16})\./;

function writerLockName(writerId: string): string {
  return `libos-writer-${writerId}`;
}

function removeFile(hostPath: string): void {
  try {
    if (lstatSync(hostPath).isFile()) unlinkSync(hostPath);
  } catch {
    // Already gone, or refused by the host: left for a later sweep.
  }
}

function unavailable(code: string | undefined): LibosError {
  return new LibosError('provider_failure', 'The provider cannot make or open its staging directory at the workspace root.', {
    effect: 'none',
    details: { path: '.', host_code: code ?? null },
  });
}
