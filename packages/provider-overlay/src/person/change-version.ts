import { createHash } from 'node:crypto';
import { LibosError } from '@libos/core';
import type { StoredHead } from '../state/entry-rows.js';
import type { OverlayConflict } from '../overlay-types.js';
import { checkPaths } from './select-rows.js';

/** 128 bits of SHA-256: no agent can make two versions of a change meet (2^64 tries for a collision). */
const DIGEST_HEX = 32;
const CHANGE = /^c-[0-9a-f]{32}$/u;
const SET = /^s-[0-9a-f]{32}$/u;

/** The fields of a row that decide what an apply or a discard of it does. */
type VersionedRow = Pick<
  StoredHead,
  'path' | 'kind' | 'opaque' | 'sha256' | 'size' | 'base_kind' | 'base_sha256' | 'base_size' | 'base_files' | 'manifest_id' | 'change' | 'mode_of'
> &
  Pick<StoredHead, 'moved_from'>;

function digest(label: string, value: unknown): string {
  return createHash('sha256').update(label).update('\0').update(JSON.stringify(value)).digest('hex').slice(0, DIGEST_HEX);
}

/**
 * The version of one change (docs/overlay.md, "Versions"): a hash of everything that decides what
 * would land (its path, what the agent left there by content and mode owner, and the base it was
 * made from). The agent's bytes enter by their SHA-256, which the row keeps equal to its content.
 * A moved file's `moved_from` enters only while it is half of a rename (`partners`, from
 * `renamePartners`): a rename that stops being one (the agent wrote the old name again) is a new
 * version, so what was shown as a rename never lands as a lone add.
 */
export function changeVersion(row: VersionedRow, partners: ReadonlyMap<string, string>): string {
  const movedFrom = row.moved_from !== null && row.moved_from !== undefined && partners.has(row.path) ? row.moved_from : null;
  return `c-${digest('libos overlay change v1', [
    row.path,
    row.change,
    row.kind,
    row.opaque,
    row.sha256,
    row.size,
    row.mode_of ?? null,
    row.base_kind,
    row.base_sha256,
    row.base_size,
    row.base_files,
    row.manifest_id,
    // A rename's source enters only when there is one, so every other change keeps its version.
    ...(movedFrom === null ? [] : [{ moved_from: movedFrom }]),
  ])}`;
}

/** True when two reads of a row hold the same change, its recorded move included. */
export function sameChange(left: VersionedRow, right: VersionedRow): boolean {
  const recorded = new Map([
    [left.path, ''],
    [right.path, ''],
  ]);
  return changeVersion(left, recorded) === changeVersion(right, recorded);
}

/** The version of a set of changes: of their versions in path order, so any change added, gone or moved alters it. */
export function setVersion(rows: readonly VersionedRow[], partners: ReadonlyMap<string, string>): string {
  return `s-${digest(
    'libos overlay set v1',
    rows.map((row) => changeVersion(row, partners)),
  )}`;
}

/** What a person says they were shown, checked. */
export interface Shown {
  /** Versions of single changes; undefined when none were named. */
  readonly changes: ReadonlySet<string> | undefined;
  /** The version of the whole selection; undefined when none was named. */
  readonly set: string | undefined;
}

/** Checks `shown` and `shownSet` as a caller gave them: each version in the form `changes` printed. */
export function checkShown(options: { readonly shown?: readonly string[]; readonly shownSet?: string }): Shown {
  const { shown, shownSet } = options;
  if (shown !== undefined && (!Array.isArray(shown) || !shown.every((version) => typeof version === 'string' && CHANGE.test(version)))) {
    throw new LibosError('invalid_arguments', 'shown must be a list of change versions as changes and diff print them (c- and 32 hex digits).', {
      details: { reason: 'bad_version' },
    });
  }
  if (shownSet !== undefined && (typeof shownSet !== 'string' || !SET.test(shownSet))) {
    throw new LibosError('invalid_arguments', 'shown_set must be a set version as changes and diff print it (s- and 32 hex digits).', {
      details: { reason: 'bad_version' },
    });
  }
  return { changes: shown === undefined ? undefined : new Set(shown), set: shownSet };
}

/** True when the caller named any version, so the action holds to what was shown. */
export const holdsToShown = (shown: Shown): boolean => shown.changes !== undefined || shown.set !== undefined;

/** A change (or, at '.', the whole set) that is not what the person was shown: nothing of it lands. */
export function shownConflict(path: string, version: string | null): OverlayConflict {
  return { path, reason: 'changed_since_shown', expected_sha256: null, actual_sha256: null, version };
}

/** Each path the person named that holds no change any more: it was shown as one, and is gone. */
export function vanished(paths: readonly string[] | undefined, rows: readonly Pick<StoredHead, 'path'>[]): OverlayConflict[] {
  return (checkPaths(paths) ?? [])
    .filter((path) => path !== '.' && !rows.some((row) => row.path === path || row.path.startsWith(`${path}/`)))
    .map((path) => shownConflict(path, null));
}
