import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, opendirSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { LibosError, ROOT_PATH } from '@libos/core';
import type { CallGate } from '@libos/provider-kit';
import type { FdPaths } from './fd-paths.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { holderOf, isWriterId, reap } from './host-lock.js';
import type { LockPlace } from './host-lock.js';
import { hostCode } from './map-node-error.js';
import type { PinnedRoot } from './pinned-root.js';
import { STAGING_NAME } from './reserved-names.js';
import { checkStagingStatus, refuseForeignStaging } from './staging-owner.js';
import { WRITER_SOCKET, probeGone, registerWriter, writerSocketName } from './writer-registry.js';
import type { WriterRegistration } from './writer-registry.js';
import { ENTRIES_PER_SLICE, yieldNow } from './yield-now.js';

/**
 * The directory under the root where writes stage their temporaries, owner-only (0700), opened
 * lazily by an O_NOFOLLOW handle and held until the provider closes. One place for every
 * temporary means one name to hide and one directory to sweep at start, and nothing of a write in
 * progress ever sits in a directory the tools can list. Being under the root, it is on the root's
 * mount, and no mount inside the workspace is ever entered, so a rename from it never crosses one.
 *
 * Each provider is one writer: once it has made or opened the directory it registers there for its
 * lifetime by listening on `writer-<id>.sock` (see `writer-registry.ts`), and its temporaries are
 * named `<id>.<n>.<random>`. The directory also holds the name locks (`lock-<key>`, see
 * `host-lock.ts`), which name their holder's id. At start a provider sweeps the temporaries, the
 * sockets and the locks of every writer provably gone (a connect to its socket is refused), and
 * leaves those of live writers alone, whatever their network namespace.
 */
export class StagingArea {
  /** This provider's writer id: the prefix of its temporaries' names. */
  readonly writerId = randomBytes(8).toString('hex');
  private held: number | undefined;
  private counter = 0;
  // Random bytes for names, drawn 256 at a time: one call into the CSPRNG per 64 temporaries.
  private entropy = Buffer.alloc(0);
  private drawn = 0;
  private registration: WriterRegistration | null = null;
  private place: LockPlace | undefined;
  private readonly sweeping: Promise<void>;
  private readonly retired: number[] = [];
  // Gone is forever (ids are never reused); alive is believed for a moment, then probed again.
  private readonly gone = new Set<string>();
  private readonly aliveUntil = new Map<string, number>();

  constructor(
    private readonly root: PinnedRoot,
    private readonly paths: FdPaths,
    gate: CallGate,
  ) {
    // Refused at start, so a planted directory is named once, not met by every write.
    refuseForeignStaging(this.paths.named(root.fd, STAGING_NAME), root.hostPath);
    // The sweep is a call in flight of its own, so closing waits for it.
    const leave = gate.enter(ROOT_PATH);
    this.sweeping = this.sweep().finally(leave);
  }

  /**
   * The staging directory's handle, made on first use, with this writer registered in it (no
   * temporary and no lock is made before). `failed` is a handle that met the directory removed by
   * a host: if it is still the current one, the directory is made, opened and registered in anew
   * (a call that already did so for another is not undone).
   */
  fd(failed?: number): number {
    if (failed !== undefined && failed === this.held) this.retire();
    if (this.held === undefined) {
      const fd = this.open();
      const at = (name: string): string => this.paths.named(fd, name);
      const registration = registerWriter(at, this.writerId);
      if (registration === null) {
        closeSync(fd);
        throw new LibosError('provider_failure', 'The provider could not register its writer socket in the staging directory.', {
          effect: 'none',
          details: { path: STAGING_NAME },
        });
      }
      this.held = fd;
      this.registration = registration;
      this.place = { at, selfId: this.writerId, isGone: (id) => this.isGone(at, id) };
    }
    return this.held;
  }

  /** Where this provider's name locks live: its staging directory, made and registered in on first use; `failed` as for `fd`. */
  lockPlace(failed?: LockPlace): LockPlace {
    if (failed !== undefined && failed === this.place) this.retire();
    this.fd();
    return this.place!;
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
    this.drop();
  }

  private drop(): void {
    this.retire();
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  // The handle of a removed directory stays open until close (a few at most): a lock taken through
  // it is released through it, and its fd number must not come to name the new directory, where
  // that release would remove a lock someone else holds.
  private retire(): void {
    this.registration?.release();
    this.registration = null;
    this.place = undefined;
    if (this.held !== undefined) this.retired.push(this.held);
    this.held = undefined;
    if (this.retired.length > MAX_RETIRED) closeSync(this.retired.shift()!);
  }

  private async isGone(at: (name: string) => string, id: string): Promise<boolean> {
    if (id === this.writerId) return false;
    if (!isWriterId(id) || this.gone.has(id)) return true;
    const now = Date.now();
    if ((this.aliveUntil.get(id) ?? 0) > now) return false;
    const gone = await probeGone(at(writerSocketName(id)));
    // Bounded: a long-lived provider meets only as many writers as ran beside it.
    if (this.gone.size + this.aliveUntil.size > 4096) {
      this.gone.clear();
      this.aliveUntil.clear();
    }
    if (gone) this.gone.add(id);
    else this.aliveUntil.set(id, now + ALIVE_FOR_MS);
    return gone;
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
      const at = (name: string): string => this.paths.named(fd, name);
      const probe = (id: string): Promise<boolean> => this.isGone(at, id);
      let seen = 0;
      const directory = opendirSync(this.paths.of(fd));
      try {
        for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) {
          const name = entry.name;
          const writer = temporaryName.exec(name)?.[1];
          const socket = WRITER_SOCKET.exec(name)?.[1];
          if (writer !== undefined) {
            if (writer !== this.writerId && (await probe(writer))) removeEntry(at(name));
          } else if (socket !== undefined) {
            // Probed by itself: a `bind-` name refuses until it listens, and its writer then binds again.
            if (socket !== this.writerId && (await probeGone(at(name)))) removeEntry(at(name));
          } else if (name.startsWith(LOCK_PREFIX)) {
            // A lock or reap lock left by a gone holder is reaped as any contender would, and like
            // one only once registered: a reap lock naming an unregistered id looks gone to others.
            const holder = holderOf({ at }, name);
            if (holder !== null && (await probe(holder))) await reap(this.lockPlace(), name, holder);
          }
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
    // Someone else's directory (planted by another user since start) could let them read or swap temporaries.
    try {
      checkStagingStatus(fstatSync(fd), this.root.hostPath);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return fd;
  }
}

const temporaryName = /^([0-9a-f]{16})\./;
/** How every lock's name begins (see `name-lock.ts`). */
export const LOCK_PREFIX = 'lock-';
const ALIVE_FOR_MS = 50;
const MAX_RETIRED = 8;

// A temporary or a socket; anything else there (a directory) is not ours to remove.
function removeEntry(hostPath: string): void {
  try {
    const status = lstatSync(hostPath);
    if (status.isFile() || status.isSocket()) unlinkSync(hostPath);
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
