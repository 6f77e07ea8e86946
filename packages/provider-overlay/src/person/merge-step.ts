import { LibosError } from '@libos/core';
import type { JournalItem } from './apply-journal.js';
import type { StepData } from './apply-steps.js';
import { sameChange } from './change-version.js';
import type { EntryRow, RowHead } from '../state/entry-rows.js';
import { sha256Hex } from '../agent/lower-files.js';
import type { Observed } from './lower-cas.js';
import type { OverlayContext } from '../overlay-context.js';
import { keepText, keptText, textOf } from '../state/overlay-texts.js';
import type { MergedPath, OverlayConflict } from '../overlay-types.js';
import { mergeThreeWay } from './three-way-merge.js';

/** What a merged step carries in its journaled plan (docs/overlay.md, "Merge"). */
export interface MergePlan {
  /** The agent's base the merge was made from. */
  readonly base_sha256: string;
  /** The agent's change left in the overlay, against what landed; null when all of it landed. */
  readonly rest_sha256: string | null;
  /**
   * Some hunk overlaps the person's edits: the change stays as it was, against its own base, so a
   * later apply merges it again and meets the same conflict, never writing over the person's lines.
   */
  readonly keeps_base: boolean;
  readonly hunks: number;
  readonly applied: readonly number[];
  readonly conflicts: readonly number[];
}

/** A merged step: the bytes that land over the person's file, and the conflict for hunks that do not. */
export interface MergedStep {
  readonly data: StepData | null;
  readonly conflict: OverlayConflict | null;
  /**
   * The person's file already holds every hunk that would land (an apply cut short before it could
   * record its write, or another overlay's apply): nothing is written and no step is journaled, so
   * no undo can hand the change back while its lines stay on disk. The change leaves the overlay
   * (or, with hunks left, is rebased onto the file) in `settleInPlace`.
   */
  readonly inPlace?: { readonly row: EntryRow; readonly landed: Uint8Array; readonly rest: Uint8Array | null; readonly path: MergedPath };
}

const encoder = new TextEncoder();

/**
 * Plans the apply of a file change by three-way merge (base: the agent's base, ours: the person's
 * file as seen now, theirs: the agent's file), when the disk no longer holds the base or only some
 * hunks are selected. Null when the plain file-level apply decides: the disk holds the base and no
 * hunks are named, merging is off, or one of the three is not text (or the base was not kept).
 */
export function mergedStep(
  context: OverlayContext,
  row: EntryRow,
  theirs: Uint8Array | null,
  seen: Observed,
  options: { readonly merge: boolean; readonly hunks: readonly number[] | undefined; readonly tag: string },
): MergedStep | null {
  const selecting = options.hunks !== undefined;
  const onBase = seen.kind === 'file' && seen.sha256 === row.base_sha256;
  if (!selecting && (onBase || !options.merge)) return null;
  const base = seen.kind === 'file' && onBase ? seen.bytes : keptText(context, row.base_sha256);
  const texts =
    row.kind === 'file' && row.base_kind === 'file' && seen.kind === 'file' && base !== undefined && theirs !== null
      ? [textOf(base), textOf(seen.bytes), textOf(theirs)]
      : [];
  const [baseText, ourText, theirText] = texts;
  if (baseText === undefined || ourText === undefined || theirText === undefined || seen.kind !== 'file') {
    if (!selecting) return null;
    throw new LibosError('invalid_arguments', `'${row.path}' is not a text file changed from a text file: its hunks cannot be selected.`, {
      details: { path: row.path, reason: 'hunks_not_text' },
    });
  }
  const outcome = mergeThreeWay(baseText, ourText, theirText, selectionOf(row.path, options.hunks, theirText, baseText));
  if (outcome.hunks === 0) return null;
  const conflict: OverlayConflict | null =
    outcome.conflicts.length === 0
      ? null
      : { path: row.path, reason: 'overlapping_edit', expected_sha256: row.base_sha256, actual_sha256: seen.sha256, hunks: outcome.conflicts };
  // Nothing new would land (every landing hunk is on disk already) while some stay: no step.
  if (outcome.applied.length === 0 || (outcome.landed === ourText && outcome.overlaps.length > 0)) return { data: null, conflict };
  if (outcome.landed === ourText) {
    const path: MergedPath = { path: row.path, hunks: outcome.hunks, applied: outcome.applied, conflicts: [], rest: outcome.rest !== outcome.landed };
    const rest = outcome.rest === outcome.landed ? null : encoder.encode(outcome.rest);
    return { data: null, conflict: null, inPlace: { row, landed: seen.bytes, rest, path } };
  }
  const landed = encoder.encode(outcome.landed);
  const rest = outcome.rest === outcome.landed ? null : encoder.encode(outcome.rest);
  // Both are kept before the journal names them: what landed is the base of the rest, for a later merge.
  const landedSha = keepText(context, landed);
  const merge: MergePlan = {
    base_sha256: row.base_sha256 ?? '',
    rest_sha256: rest === null ? null : keepText(context, rest),
    keeps_base: outcome.overlaps.length > 0,
    hunks: outcome.hunks,
    applied: outcome.applied,
    conflicts: outcome.conflicts,
  };
  return {
    conflict,
    data: {
      plan: { path: row.path, base: { kind: 'file', sha256: seen.sha256 }, put: { kind: 'file', sha256: landedSha }, tag: options.tag, merge },
      newBytes: landed,
      beforeBytes: seen.bytes,
      beforeTree: [],
    },
  };
}

function selectionOf(path: string, hunks: readonly number[] | undefined, theirs: string, base: string): ReadonlySet<number> | undefined {
  if (hunks === undefined) return undefined;
  const count = mergeThreeWay(base, base, theirs).hunks;
  const wrong = hunks.filter((hunk) => !Number.isInteger(hunk) || hunk < 1 || hunk > count);
  if (hunks.length === 0 || wrong.length > 0) {
    throw new LibosError('invalid_arguments', `'${path}' has hunks 1 to ${count}; name one or more of them.`, {
      details: { path, reason: 'no_such_hunk', hunks: count },
    });
  }
  return new Set(hunks);
}

/**
 * Takes a merged step's change out of the overlay: what did not land stays, as the agent's change
 * against what landed. If the agent changed the path again meanwhile, its row stays as it is: its
 * base is still the one it was made from, so a later apply merges it again, never over the person.
 */
export function settleMerged(context: OverlayContext, item: JournalItem, merge: MergePlan): void {
  const row = context.rows.get(item.row.path);
  if (row === undefined || merge.keeps_base || !sameChange(row, item.row)) return;
  if (merge.rest_sha256 === null) {
    context.rows.remove(row.path);
    return;
  }
  const rest = keptText(context, merge.rest_sha256);
  const landed = item.data.newBytes;
  if (rest === undefined || landed === null) return;
  context.rows.put({
    ...row,
    content: Buffer.from(rest),
    sha256: merge.rest_sha256,
    size: rest.length,
    base_kind: 'file',
    base_sha256: sha256Hex(landed),
    base_size: landed.length,
    base_files: null,
    manifest_id: null,
    lower_bytes: 0,
    hash_state: null,
  });
}

/** Whether the row at an undone merged step's path is the rest that step left, so the agent's own change goes back in its place. */
export function leftByMerge(row: Pick<RowHead, 'sha256' | 'base_sha256'> | undefined, item: JournalItem): boolean {
  const { merge, put } = item.data.plan;
  if (row === undefined || merge === undefined || merge.keeps_base || merge.rest_sha256 === null || put?.kind !== 'file') return false;
  return row.sha256 === merge.rest_sha256 && row.base_sha256 === put.sha256;
}

/**
 * Settles changes whose hunks the person's file already holds, in one transaction: each leaves the
 * overlay, or keeps what is left against the file as it is; a row the agent changed since stays.
 */
export function settleInPlace(context: OverlayContext, steps: readonly NonNullable<MergedStep['inPlace']>[]): MergedPath[] {
  return context.state.write(() => {
    const settled: MergedPath[] = [];
    for (const step of steps) {
      const now = context.rows.get(step.row.path);
      if (now === undefined || !sameChange(now, step.row)) continue;
      if (step.rest === null) context.rows.remove(now.path);
      else {
        const base = keepText(context, step.landed);
        const rest = keepText(context, step.rest);
        context.rows.put({
          ...now,
          content: Buffer.from(step.rest),
          sha256: rest,
          size: step.rest.length,
          base_kind: 'file',
          base_sha256: base,
          base_size: step.landed.length,
          base_files: null,
          manifest_id: null,
          lower_bytes: 0,
          hash_state: null,
        });
      }
      settled.push(step.path);
    }
    return settled;
  });
}
