import { readlinkSync, symlinkSync, unlinkSync } from 'node:fs';
import { hash } from 'node:crypto';
import { LibosError } from '@libos/core';
import { hostCode } from './map-node-error.js';

/**
 * Where locks live and how a holder's death is proved: a staging directory (owner-only, so no
 * other user can create, read or remove anything in it), this provider's writer id, and the
 * liveness test of writer ids (see `writer-registry.ts`).
 */
export interface LockPlace {
  /** The directory's entry `name` as a host path. */
  at(name: string): string;
  /** The writer id this provider's locks name. */
  readonly selfId: string;
  /** Whether writer `id` is provably gone: its process died or closed its provider. */
  isGone(id: string): Promise<boolean>;
}

/** A held lock. */
export interface HostLock {
  /** Gives the lock up. Idempotent. */
  release(): void;
}

/*
 * A lock is a symbolic link `<place>/<name>` whose target is its holder's writer id, made by
 * symlink(2), which fails with EEXIST on any existing entry: the creation is the test-and-set, atomic
 * against every process that sees the directory, whatever its network namespace. Only the holder
 * unlinks it, except when its holder is provably gone; then it is reaped under a second lock,
 * `<name>.reap.<gone id>`, taken the same way:
 *
 *   1. the reaper reads the link and proves its holder D gone (a refused connect to D's socket);
 *   2. it takes `<name>.reap.D`; if that is held by a live reaper it waits, if by a gone one, it
 *      reaps that reap lock first, one level up, in the same way;
 *   3. holding it, it reads the link again and unlinks it only if it still names D;
 *   4. it releases the reap lock.
 *
 * Why no two live processes ever both believe they hold `<name>`: a process believes it holds from
 * its successful symlink to its own unlink, and during that time the link names it. Nobody else
 * ever unlinks a link naming a live writer: a reaper unlinks only a link it read as naming D after
 * proving D gone, and D's death is permanent (ids are random, never reused). Between that reaper's
 * read (3) and its unlink, nobody can replace the link: D is dead and cannot unlink it, every other
 * reaper of D waits on `<name>.reap.D` (mutual exclusion one level up, by the same argument, and a
 * reap name grows with each level, so the levels are finite), a reaper of any other id E read E, not
 * D, and symlink never replaces an existing entry. So the unlink removes the very link that named
 * D, and the next symlink of `<name>` is again the only one that succeeds. All of this needs every
 * id a link names to be registered before the link is made (`LockPlace` is only handed out once it
 * is): a link naming an id with no socket yet looks gone, and would be reaped from a live process
 * (the many-reapers test caught a start-up sweep doing just that). A reaper that dies
 * leaves a reap lock whose own holder is gone: the next contender reaps it one level up.
 */

const MAX_NAME = 255;
const WRITER_ID = /^[0-9a-f]{16}$/;

/** Takes lock `name` if it is free; null if another holder (or another call of this provider) has it. */
export function tryTake(place: LockPlace, name: string): HostLock | null {
  const at = place.at(name);
  try {
    symlinkSync(place.selfId, at);
  } catch (error) {
    if (hostCode(error) === 'EEXIST') return null;
    throw lockFailure(hostCode(error));
  }
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      try {
        unlinkSync(at);
      } catch {
        // Removed by the host (the staging directory deleted): nothing left to release.
      }
    },
  };
}

/**
 * Takes lock `name`, waiting while a live holder has it (holders keep it for the length of one
 * check and rename) and reaping it from a gone one. Fails with `changed_during_operation`, nothing
 * done, past `timeoutMs`. `beforeWait` runs before each wait and may throw to stop (a cancelled call).
 */
export async function hold(place: LockPlace, name: string, timeoutMs = 10_000, beforeWait?: () => void): Promise<HostLock> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const lock = tryTake(place, name);
    if (lock !== null) return lock;
    const holder = holderOf(place, name);
    // Released between the two calls: try again at once, though never in a loop that holds the
    // event loop (a holder in this process releases from another task).
    if (holder === null && attempt % 8 !== 7) continue;
    if (holder !== null && (await place.isGone(holder)) && (await reap(place, name, holder))) continue;
    if (Date.now() > deadline) {
      throw new LibosError('changed_during_operation', 'Another libOS runtime kept the file locked; nothing was changed.', {
        effect: 'none',
      });
    }
    beforeWait?.();
    // Spin on the event loop first, then back off to a millisecond so a long holder costs no CPU.
    await new Promise((resolve) => (attempt < 8 ? setImmediate(resolve) : setTimeout(resolve, 1)));
  }
}

/**
 * Removes lock `name` if it still names `gone` (a writer proved gone), under the reap lock of that
 * id. True once `name` no longer names `gone`; false while a live reaper is at it (the caller waits).
 */
export async function reap(place: LockPlace, name: string, gone: string): Promise<boolean> {
  const reapName = `${name}.reap.${tagOf(gone)}`;
  // Only a chain of reapers each killed mid-reap gets here; the lock then waits out its timeout.
  if (reapName.length > MAX_NAME) return false;
  for (let attempt = 0; attempt < 3; attempt++) {
    const reaper = tryTake(place, reapName);
    if (reaper !== null) {
      try {
        if (holderOf(place, name) === gone) unlinkSync(place.at(name));
      } catch {
        // Gone already: only a reaper of this id removes it, and that is us.
      } finally {
        reaper.release();
      }
      return true;
    }
    const other = holderOf(place, reapName);
    if (other === null) continue;
    if (!(await place.isGone(other))) return false;
    if (!(await reap(place, reapName, other))) return false;
  }
  return false;
}

/** The writer id a lock names, '' for an entry that is not a link, null when nothing is there. */
export function holderOf(place: Pick<LockPlace, 'at'>, name: string): string | null {
  try {
    return readlinkSync(place.at(name));
  } catch (error) {
    const code = hostCode(error);
    if (code === 'ENOENT') return null;
    // Not a link (planted by the directory's owner): no writer holds it.
    if (code === 'EINVAL') return '';
    throw lockFailure(code);
  }
}

/** Whether `id` has the form of a writer id (anything else in a lock names no live writer). */
export function isWriterId(id: string): boolean {
  return WRITER_ID.test(id);
}

// A reap name carries the gone id; a target that is no writer id is named by its hash instead.
function tagOf(id: string): string {
  return isWriterId(id) ? id : hash('sha256', id, 'hex').slice(0, 16);
}

function lockFailure(code: string | undefined): LibosError {
  return new LibosError('provider_failure', 'The provider could not use its lock directory in the staging area.', {
    effect: 'none',
    details: { host_code: code ?? null },
  });
}
