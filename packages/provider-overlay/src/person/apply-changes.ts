import { LibosError } from '@libos/core';
import { beforeOf, forward, returnBase, type StepData, type StepPlan } from './apply-steps.js';
import { activeApplies, journalApply, markApply, markItem, newApplyId, settleRow, type JournalItem } from './apply-journal.js';
import { finishCommit, rollBack } from './recover-apply.js';
import { changeVersion, checkShown, holdsToShown, sameChange, setVersion, shownConflict, vanished } from './change-version.js';
import type { EntryRow } from '../state/entry-rows.js';
import { prefixesOf } from '../agent/locate-path.js';
import { conflictOf, holds, observe, type Observed } from './lower-cas.js';
import { lowerManifest, type ManifestEntry } from '../agent/lower-files.js';
import { readManifest } from '../state/manifest-store.js';
import type { OverlayContext } from '../overlay-context.js';
import type { ApplyOptions, ApplyResult, OverlayConflict } from '../overlay-types.js';
import { modeToApply } from '../state/mode-of.js';
import { landingRows } from './select-rows.js';
import { refusalOf } from './state-path-guard.js';
import { checkHunks, mergeOptions, theirBytes, withInPlace, withMerged } from './apply-merge-options.js';
import { mergedStep, settleInPlace, type MergedStep } from './merge-step.js';
import { readStatePath } from '../state/state-path.js';
import { holdRenames, refuseRenameHunks, renamePartners } from './rename-pairs.js';

/**
 * Writes the selected changes into the lower (docs/overlay.md, "apply"). Every step is journaled
 * before the first lower call, each lands by the lower's own compare-and-swap, and a step's row
 * leaves the overlay in the same transaction that marks it done.
 */
export async function applyChanges(context: OverlayContext, options: ApplyOptions = {}): Promise<ApplyResult> {
  const mode = options.mode ?? 'per_file';
  if (mode !== 'per_file' && mode !== 'all_or_nothing')
    throw new LibosError('invalid_arguments', "mode must be 'per_file' or 'all_or_nothing'.", { details: { mode } });
  const shown = checkShown(options);
  const holding = holdsToShown(shown);
  const rows = landingRows(context, options.paths);
  checkHunks(options, shown, rows);
  const partners = renamePartners(context.state.db, rows);
  refuseRenameHunks(partners, options.hunks);
  // What the person was shown is checked against the very rows whose bytes land (below), never
  // against a later read: a write of the agent after this point cannot slip into the apply.
  const setNow = setVersion(rows, partners);
  if (shown.set !== undefined && setNow !== shown.set) return nothingLands([shownConflict('.', setNow)]);
  const applyId = newApplyId();
  const conflicts: OverlayConflict[] = holding ? vanished(options.paths, rows) : [];
  let items: JournalItem[] = [];
  const blocked = new Set<string>();
  const replacedFiles = new Set<string>();
  const inPlace: NonNullable<MergedStep['inPlace']>[] = [];
  for (const head of rows) {
    // The one decoding of the stored path: a path the rules refuse (a crafted state, a name the
    // lower reserves) is one conflict, before any lower call.
    const path = readStatePath(head.path);
    const refusal = path instanceof LibosError ? path : refusalOf(context.lower, path);
    if (refusal !== null || path instanceof LibosError) {
      conflicts.push({ path: head.path, reason: 'refused_path', expected_sha256: null, actual_sha256: null });
      blocked.add(head.path);
      continue;
    }
    const row = context.rows.get(path);
    const version = row === undefined || row.change === null ? null : changeVersion(row, partners);
    const same = row !== undefined && sameChange(row, head);
    if (holding && (version === null || !same || (shown.changes !== undefined && !shown.changes.has(version)))) {
      // Moved since the set was read, or not a version the person named: nothing of it lands.
      if (shown.set !== undefined) return nothingLands([shownConflict(head.path, version)]);
      conflicts.push(shownConflict(head.path, version));
      blocked.add(head.path);
      continue;
    }
    if (row === undefined) continue;
    const data = await prepareStep(context, row, `${applyId.slice(6)}-${items.length + conflicts.length}`);
    const above = prefixesOf(path).filter((prefix) => prefix !== path);
    const parentBlocked = above.some((prefix) => blocked.has(prefix));
    // Below a file this apply replaces by a directory nothing can stand yet: that file's own check covers it.
    const underFile = above.some((prefix) => replacedFiles.has(prefix));
    const seen: Observed = underFile ? { kind: 'missing' } : await observe(context.lower, path);
    const merging = parentBlocked ? null : mergedStep(context, row, theirBytes(row, seen), seen, mergeOptions(options, row.path, data.plan.tag));
    if (merging !== null) {
      if (merging.conflict !== null) conflicts.push(merging.conflict);
      if (merging.inPlace !== undefined) inPlace.push(merging.inPlace);
      else if (merging.data === null) blocked.add(row.path);
      else
        items.push({
          ord: items.length,
          state: 'planned',
          data: { ...merging.data, plan: await withModes(context, merging.data.plan, row, seen) },
          row,
        });
      continue;
    }
    if (parentBlocked || !(await holds(context.lower, path, beforeOf(data), seen))) {
      conflicts.push(conflictOf(row.path, beforeOf(data), seen));
      blocked.add(row.path);
      continue;
    }
    if (row.base_kind === 'file') replacedFiles.add(row.path);
    const plan = await withModes(context, data.plan, row, seen);
    const beforeBytes = seen.kind === 'file' ? seen.bytes : null;
    items.push({
      ord: items.length,
      state: 'planned',
      data: { ...data, plan, newBytes: withBase(row, beforeBytes, data.newBytes), beforeBytes },
      row,
    });
  }
  const landing = new Set([...items, ...inPlace].map((step) => step.row.path));
  items = holdRenames(partners, items, landing, conflicts).map((item, ord) => ({ ...item, ord }));
  inPlace.splice(0, inPlace.length, ...holdRenames(partners, inPlace, landing, conflicts));
  if (mode === 'all_or_nothing' && conflicts.length > 0) return { apply_id: null, applied: [], conflicts };
  if (items.length === 0) return withInPlace({ apply_id: null, applied: [], conflicts }, settleInPlace(context, inPlace));
  context.state.write(() => journalApply(context, applyId, mode, items));
  activeApplies.add(applyId);
  let result: ApplyResult;
  try {
    result = withMerged(await runSteps(context, applyId, mode, items, conflicts), items);
  } finally {
    activeApplies.delete(applyId);
  }
  // An all-or-nothing apply rolled back lands nothing, these included.
  return result.apply_id === null ? result : withInPlace(result, settleInPlace(context, inPlace));
}

async function runSteps(
  context: OverlayContext,
  applyId: string,
  mode: string,
  items: readonly JournalItem[],
  conflicts: OverlayConflict[],
): Promise<ApplyResult> {
  const applied: string[] = [];
  const failed = new Set<string>();
  const done: JournalItem[] = [];
  for (const item of items) {
    const path = item.data.plan.path;
    const parentFailed = prefixesOf(path).some((prefix) => prefix !== path && failed.has(prefix));
    const conflict = parentFailed
      ? conflictOf(path, beforeOf(item.data), await observe(context.lower, path))
      : await forward(context.lower, item.data, mode === 'all_or_nothing');
    if (conflict !== null) {
      conflicts.push(conflict);
      failed.add(path);
      if (mode === 'all_or_nothing') {
        // Its base may wait aside (removed, then the agent's entry could not go in): it goes back first.
        await returnBase(context.lower, item.data);
        await rollBack(context, applyId, done);
        return { apply_id: null, applied: [], conflicts };
      }
      context.state.write(() => markItem(context, applyId, item.ord, 'conflict'));
      continue;
    }
    done.push(item);
    applied.push(path);
    context.state.write(() => {
      markItem(context, applyId, item.ord, 'done');
      if (mode === 'per_file') settleRow(context, item);
    });
  }
  context.state.write(() => {
    if (mode === 'all_or_nothing') for (const item of done) settleRow(context, item);
    // An all-or-nothing apply still holds the bases it removed; once they are unlinked it is committed.
    markApply(context, applyId, mode === 'all_or_nothing' ? 'committing' : 'committed');
    context.history.clear();
  });
  if (mode === 'all_or_nothing') await finishCommit(context, applyId, done);
  return { apply_id: applyId, applied, conflicts };
}

function nothingLands(conflicts: OverlayConflict[]): ApplyResult {
  return { apply_id: null, applied: [], conflicts };
}

/**
 * The modes travel with the bytes (docs/overlay.md, "Modes"): the agent's file lands with the mode
 * its row names, and a base file's mode is journaled, so an undo puts it back as it was. Both are
 * read now, before any step runs: a move's source is still on disk.
 */
async function withModes(context: OverlayContext, plan: StepPlan, row: EntryRow, seen: Observed): Promise<StepPlan> {
  const { base, put } = plan;
  const baseMode = base.kind === 'file' && seen.kind === 'file' ? seen.mode : undefined;
  const putMode = put?.kind === 'file' ? await modeToApply(context.lower, row.mode_of) : undefined;
  return {
    ...plan,
    base: base.kind === 'file' && typeof baseMode === 'number' ? { ...base, mode: baseMode } : base,
    put: put?.kind === 'file' && putMode !== undefined ? { ...put, mode: putMode } : put,
  };
}

/** The plan and bytes of one row's step; a base directory's manifest is checked against the disk now. */
async function prepareStep(context: OverlayContext, row: EntryRow, tag: string): Promise<StepData> {
  const base: StepPlan['base'] =
    row.base_kind === 'file'
      ? { kind: 'file', sha256: row.base_sha256 ?? '' }
      : row.base_kind === 'directory'
        ? { kind: 'directory', manifest_id: row.manifest_id ?? 0 }
        : { kind: 'missing' };
  const put: StepPlan['put'] =
    row.kind === 'file' ? { kind: 'file', sha256: row.sha256 ?? '' } : row.kind === 'directory' ? { kind: 'directory' } : null;
  let beforeTree: ManifestEntry[] = [];
  if (base.kind === 'directory') {
    const recorded = readManifest(context, base.manifest_id) as ManifestEntry[];
    beforeTree = recorded;
    const seen = await observe(context.lower, row.path);
    if (seen.kind === 'directory') {
      // Keep the bytes now, so an undo can put the directory back; they must match the manifest.
      const fresh = await lowerManifest(context.lower, row.path, { keepBytes: true });
      const bytesBy = new Map(fresh.map((entry) => [entry.path, entry]));
      beforeTree = recorded.map((entry) => {
        const found = bytesBy.get(entry.path);
        return found?.bytes !== undefined && found.sha256 === entry.sha256 ? { ...entry, bytes: found.bytes } : entry;
      });
    }
  }
  return {
    plan: { path: row.path, base, put, tag },
    newBytes: row.content === null ? null : new Uint8Array(row.content),
    beforeBytes: null,
    beforeTree,
  };
}

// A file the agent appended to begins with its base, left on the lower: the lower was just seen to
// hold exactly that base (the check above), so the bytes that land are those followed by the rest.
function withBase(row: EntryRow, seenBase: Uint8Array | null, stored: Uint8Array | null): Uint8Array | null {
  if ((row.lower_bytes ?? 0) === 0 || row.kind !== 'file') return stored;
  const base = seenBase ?? new Uint8Array(0);
  const whole = new Uint8Array(base.length + (stored?.length ?? 0));
  whole.set(base, 0);
  if (stored !== null) whole.set(stored, base.length);
  return whole;
}
