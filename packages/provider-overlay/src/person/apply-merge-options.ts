import { LibosError, compareCodePoints } from '@libos/core';
import type { JournalItem } from './apply-journal.js';
import type { Shown } from './change-version.js';
import type { EntryRow } from '../state/entry-rows.js';
import type { Observed } from './lower-cas.js';
import type { ApplyOptions, ApplyResult, MergedPath } from '../overlay-types.js';

/**
 * Checks a hunk selection before anything is read from the lower: a path with hunks must be one the
 * apply lands, and the person must name the version they were shown (hunk numbers are that
 * version's; docs/overlay.md, "Hunks").
 */
export function checkHunks(options: ApplyOptions, shown: Shown, rows: readonly { readonly path: string }[]): void {
  const { hunks } = options;
  if (hunks === undefined) return;
  if (typeof hunks !== 'object' || hunks === null || Array.isArray(hunks)) {
    throw new LibosError('invalid_arguments', 'hunks must map a path to a list of hunk numbers.', { details: { reason: 'bad_hunks' } });
  }
  for (const [path, numbers] of Object.entries(hunks)) {
    if (!Array.isArray(numbers)) {
      throw new LibosError('invalid_arguments', `The hunks of '${path.slice(0, 200)}' must be a list of hunk numbers.`, {
        details: { reason: 'bad_hunks' },
      });
    }
    if (!rows.some((row) => row.path === path)) {
      throw new LibosError('invalid_arguments', `'${path.slice(0, 200)}' holds no change selected here: its hunks cannot be selected.`, {
        details: { path: path.slice(0, 200), reason: 'no_such_change' },
      });
    }
  }
  if (shown.changes === undefined && shown.set === undefined) {
    throw new LibosError('invalid_arguments', 'A hunk selection names the version it was shown: pass shown (the c-… version diff printed).', {
      details: { reason: 'hunks_need_shown' },
    });
  }
}

/** Checks a hunk selection of `discard`: each path with hunks is one of the paths named, and a version shown is named. */
export function checkDiscardHunks(options: { readonly hunks?: unknown }, shown: Shown, paths: readonly string[] | undefined): void {
  if (options.hunks === undefined) return;
  checkHunks(
    options as ApplyOptions,
    shown,
    (paths ?? []).map((path) => ({ path })),
  );
}

/** How one row's step merges: whether merging is on, and the hunks selected at its path. */
export function mergeOptions(options: ApplyOptions, path: string, tag: string) {
  return { merge: options.merge !== false, hunks: hunksAt(options.hunks, path), tag };
}

/** The hunks selected at `path`: an own entry only, so a file named `constructor` is never given Object's. */
export function hunksAt(hunks: Readonly<Record<string, readonly number[]>> | undefined, path: string): readonly number[] | undefined {
  return hunks !== undefined && Object.hasOwn(hunks, path) ? hunks[path] : undefined;
}

/**
 * The agent's whole file: what the row holds, or, for a file appended to, the base the lower holds
 * followed by it; null when that base is no longer on disk (no merge can know it).
 */
export function theirBytes(row: EntryRow, seen: Observed): Uint8Array | null {
  if (row.kind !== 'file') return null;
  const stored = new Uint8Array(row.content ?? Buffer.alloc(0));
  if ((row.lower_bytes ?? 0) === 0) return stored;
  if (seen.kind !== 'file' || seen.sha256 !== row.base_sha256) return null;
  const whole = new Uint8Array(seen.bytes.length + stored.length);
  whole.set(seen.bytes, 0);
  whole.set(stored, seen.bytes.length);
  return whole;
}

/** The result with what each merged step that landed did. */
export function withMerged(result: ApplyResult, items: readonly JournalItem[]): ApplyResult {
  const landed = new Set(result.applied);
  const merged: MergedPath[] = [];
  for (const item of items) {
    const { merge, path } = item.data.plan;
    if (merge === undefined || !landed.has(path)) continue;
    merged.push({
      path,
      hunks: merge.hunks,
      applied: merge.applied,
      conflicts: merge.conflicts,
      rest: merge.rest_sha256 !== null || merge.keeps_base,
    });
  }
  return merged.length === 0 ? result : { ...result, merged };
}

/** The result with the changes whose hunks were on the person's file already: applied, with nothing written. */
export function withInPlace(result: ApplyResult, settled: readonly MergedPath[]): ApplyResult {
  if (settled.length === 0) return result;
  const applied = [...result.applied, ...settled.map((path) => path.path)].sort(compareCodePoints);
  return { ...result, applied, merged: [...(result.merged ?? []), ...settled] };
}
