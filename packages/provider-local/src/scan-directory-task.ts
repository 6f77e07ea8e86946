import { closeSync, openSync, opendirSync } from 'node:fs';
import { LibosError } from '@libos/core';
import type { ErrorCode, ErrorDetails, Effect, WorkspacePath } from '@libos/core';
import { type DescribeState, describeEntry } from './describe-entry.js';
import { FdPaths } from './fd-paths.js';
import { DIRECTORY_HANDLE } from './host-flags.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { mountIdOf } from './mount-id.js';
import { type PackedEntries, packEntries } from './packed-entries.js';
import { isReservedName } from './reserved-names.js';

/**
 * One directory of a search, as a search thread does it: the directory `raw` inside `parentFd`
 * (the directory `parentFd` pins itself when `raw` is null), whose path is `path`.
 */
export interface ScanTask {
  readonly parentFd: number;
  readonly raw: string | null;
  readonly path: WorkspacePath;
  readonly procFdDirectory: string;
  readonly rootDev: number;
  readonly rootMountId: number;
  /** See `DescribeState.mounts`: the identities of the mounts' roots, or null to check each file's mount id. */
  readonly identities: readonly string[] | null;
  readonly needles: readonly Uint8Array[];
  /** `TreeSearchQuery.foldedNeedles`, as latin1 strings (see `DescribeState.foldedNeedles`). */
  readonly foldedNeedles: readonly string[];
  readonly alwaysNames: readonly string[];
  readonly maxBytes: number;
  /** What is left of the search's entry budget and carried bytes when the task starts. */
  readonly maxEntries: number;
  readonly maxCarriedBytes: number;
}

/** What a directory's scan found, or why it has no answer. */
export type ScanOutcome =
  | {
      readonly kind: 'done';
      readonly entries: PackedEntries;
      /** Raw names of the directories to enter next, and the handle (left open for them) of this one; -1 when there are none. */
      readonly below: readonly string[];
      readonly fd: number;
    }
  /** Gone, swapped for a link or a file, or a mount point, since its parent's scan: left unentered. */
  | { readonly kind: 'gone' }
  | { readonly kind: 'too_many' }
  | { readonly kind: 'failed'; readonly failure: SentFailure };

/** A LibosError as it crosses a thread (a class does not). */
export interface SentFailure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly effect: Effect;
  readonly details: ErrorDetails | undefined;
}

let scratch = Buffer.allocUnsafeSlow(0);

/**
 * Scans the task's directory synchronously: holds it (no link followed, no other mount entered),
 * reads its names and describes each (`describeEntry`) by `/proc/self/fd/<fd>/<name>` paths, since
 * a thread cannot borrow the working directory. Never throws: a host refusal is sent back whole.
 */
export function scanDirectoryTask(task: ScanTask): ScanOutcome {
  let fd = task.parentFd;
  if (task.raw !== null) {
    const paths = new FdPaths(task.procFdDirectory);
    try {
      fd = openSync(paths.child(task.parentFd, task.raw), DIRECTORY_HANDLE);
    } catch (error) {
      const code = hostCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'gone' };
      return failed(mapNodeError(error, task.path));
    }
    try {
      if (mountIdOf(fd) !== task.rootMountId) {
        closeSync(fd);
        return { kind: 'gone' };
      }
    } catch (error) {
      closeSync(fd);
      return failed(mapNodeError(error, task.path));
    }
  }
  const owned = task.raw !== null;
  try {
    const outcome = scanHeld(task, fd);
    if (owned && (outcome.kind !== 'done' || outcome.fd === -1)) closeSync(fd);
    return outcome;
  } catch (error) {
    if (owned) closeSync(fd);
    return failed(mapNodeError(error, task.path));
  }
}

function scanHeld(task: ScanTask, fd: number): ScanOutcome {
  const paths = new FdPaths(task.procFdDirectory);
  const names: string[] = [];
  const handle = opendirSync(paths.of(fd), { encoding: 'latin1', bufferSize: 1024 });
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      // The staging directory (and everything of a write in progress) is never listed.
      if (isReservedName(entry.name)) continue;
      if (names.length === task.maxEntries) return { kind: 'too_many' };
      names.push(entry.name);
    }
  } finally {
    handle.closeSync();
  }
  if (scratch.length !== task.maxBytes + 1) scratch = Buffer.allocUnsafeSlow(task.maxBytes + 1);
  const state: DescribeState = {
    fdPath: (held) => paths.of(held),
    rootDev: task.rootDev,
    rootMountId: task.rootMountId,
    mounts: task.identities === null ? null : { identities: new Set(task.identities) },
    checked: 0,
    needles: task.needles,
    foldedNeedles: task.foldedNeedles,
    alwaysNames: task.alwaysNames,
    maxBytes: task.maxBytes,
    maxCarriedBytes: task.maxCarriedBytes,
    carried: 0,
    scratch,
    entries: [],
  };
  const below = names.filter((raw) => describeEntry(state, task.path, raw, (name) => paths.child(fd, name)));
  return { kind: 'done', entries: packEntries(state.entries), below, fd: below.length > 0 ? fd : -1 };
}

function failed(error: LibosError): ScanOutcome {
  return { kind: 'failed', failure: { code: error.code, message: error.message, effect: error.effect, details: error.details } };
}

/** The LibosError a thread sent. */
export function receivedFailure(failure: SentFailure): LibosError {
  return new LibosError(failure.code, failure.message, {
    effect: failure.effect,
    ...(failure.details === undefined ? {} : { details: failure.details }),
  });
}
