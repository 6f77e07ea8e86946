import { LibosError } from '@libos/core';
import { theirBytes } from './apply-merge-options.js';
import { observe } from './lower-cas.js';
import type { OverlayContext } from '../overlay-context.js';
import { keptText, textOf } from '../state/overlay-texts.js';
import type { ChangesResult, OverlayChange } from '../overlay-types.js';
import { mergeThreeWay } from './three-way-merge.js';
import { readStatePath } from '../state/state-path.js';

/**
 * Says, for each file change of the page whose base the disk no longer holds, what an apply would
 * do now (docs/overlay.md, "Merge"): `merges` (every hunk lands), `conflicts` (the hunks that
 * overlap the person's edits), or `changed` (no merge: not text, no kept base, or no file there).
 * It reads each changed file of the page once, so its cost grows with the page, not the lower.
 */
export async function withDiskState(context: OverlayContext, page: ChangesResult): Promise<ChangesResult> {
  const changes: OverlayChange[] = [];
  for (const change of page.changes) changes.push(await onDisk(context, change));
  return { ...page, changes };
}

async function onDisk(context: OverlayContext, change: OverlayChange): Promise<OverlayChange> {
  // The change's path as the state gave it back, decoded once more (`state-path.ts`): a refused one is left as listed.
  const path = readStatePath(change.path);
  const row = path instanceof LibosError ? undefined : context.rows.get(path);
  if (row === undefined || row.base_kind === 'directory' || (row.kind === 'directory' && row.base_kind === 'missing')) return change;
  const seen = await observe(context.lower, row.path);
  if (row.base_kind === 'missing' ? seen.kind === 'missing' : seen.kind === 'file' && seen.sha256 === row.base_sha256) return change;
  const base = keptText(context, row.base_sha256);
  const theirs = theirBytes(row, seen);
  const texts = seen.kind === 'file' && base !== undefined && theirs !== null ? [textOf(base), textOf(seen.bytes), textOf(theirs)] : [];
  const [baseText, ourText, theirText] = texts;
  if (row.kind !== 'file' || baseText === undefined || ourText === undefined || theirText === undefined)
    return { ...change, disk: { state: 'changed' } };
  const outcome = mergeThreeWay(baseText, ourText, theirText);
  if (outcome.overlaps.length === 0) return { ...change, disk: { state: 'merges' } };
  return { ...change, disk: { state: 'conflicts', hunks: outcome.overlaps } };
}
