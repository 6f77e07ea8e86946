import { activeApplies, loadJournal, markApply, markItem, settleRow, type JournalItem, type RefusedItem } from './apply-journal.js';
import { backward, dropBase, returnBase, settlePut, showsAfter, showsBefore, type StepData } from './apply-steps.js';
import { makeDirectoryIfFree } from './delete-tree.js';
import { casWrite, observe, sortManifest } from './lower-cas.js';
import type { OverlayContext } from '../overlay-context.js';
import { refusalOf } from './state-path-guard.js';
import { pathBelow } from '../state/state-path.js';

/**
 * Puts back, newest first, what the done steps of an all-or-nothing apply changed, from the bases
 * they hold aside; no row ever left the overlay.
 */
export async function rollBack(context: OverlayContext, applyId: string, done: readonly JournalItem[]): Promise<void> {
  for (const item of [...done].reverse()) {
    await backward(context.lower, item.data, true);
    context.state.write(() => markItem(context, applyId, item.ord, 'rolled_back'));
  }
  context.state.write(() => markApply(context, applyId, 'rolled_back'));
}

/** Unlinks the bases a committing all-or-nothing apply held aside, then marks it committed. */
export async function finishCommit(context: OverlayContext, applyId: string, done: readonly JournalItem[]): Promise<void> {
  for (const item of done) await dropBase(context.lower, item.data);
  context.state.write(() => markApply(context, applyId, 'committed'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Finishes or rolls back every apply whose process died midway (docs/overlay.md, "Crashes"): a
 * per-file apply keeps the steps that landed (their rows leave the overlay) and puts back the rest;
 * an all-or-nothing apply is rolled back, or, if it was committing, its held bases are unlinked.
 * Decided by what the lower and the step's own aside names hold, so nothing lands twice.
 */
export async function recoverApplies(context: OverlayContext): Promise<void> {
  const running = context.state.db
    .prepare<[], { apply_id: string; mode: string; state: string; pid: number }>(
      "SELECT apply_id, mode, state, pid FROM applies WHERE state IN ('running', 'committing') ORDER BY at",
    )
    .all();
  for (const apply of running) {
    if (activeApplies.has(apply.apply_id)) continue;
    if (apply.pid !== process.pid && alive(apply.pid)) continue;
    // Claim it, so two recovering processes never both redo it.
    const claimed = context.state.write(
      () =>
        context.state.db
          .prepare('UPDATE applies SET pid = ? WHERE apply_id = ? AND pid = ? AND state = ?')
          .run(process.pid, apply.apply_id, apply.pid, apply.state).changes,
    );
    if (claimed !== 1) continue;
    activeApplies.add(apply.apply_id);
    try {
      const items = loadJournal(context, apply.apply_id);
      if (apply.state === 'committing')
        await finishCommit(
          context,
          apply.apply_id,
          items.filter((item): item is JournalItem => !('refusal' in item) && item.state === 'done'),
        );
      else if (apply.mode === 'all_or_nothing') await recoverAllOrNothing(context, apply.apply_id, items);
      else await recoverPerFile(context, apply.apply_id, items);
    } finally {
      activeApplies.delete(apply.apply_id);
    }
  }
}

async function recoverPerFile(context: OverlayContext, applyId: string, items: ReadonlyArray<JournalItem | RefusedItem>): Promise<void> {
  for (const item of items) {
    if (item.state !== 'planned') continue;
    if (refused(context, item)) {
      context.state.write(() => markItem(context, applyId, item.ord, 'conflict'));
      continue;
    }
    // A removal cut short puts back what it had moved aside; the step is then judged as it stands. A
    // directory is gone only once all of it is (its files wait aside until then): those go for good.
    const { base } = item.data.plan;
    const treeGone = base.kind === 'directory' && (await observe(context.lower, item.data.plan.path)).kind !== 'directory';
    if (treeGone) await dropBase(context.lower, item.data);
    else await returnBase(context.lower, item.data);
    let state: JournalItem['state'];
    if (await showsAfter(context.lower, item.data.plan)) state = 'done';
    else if (await showsBefore(context.lower, item.data)) state = 'skipped';
    else state = await finishOrRestore(context, item.data);
    context.state.write(() => {
      markItem(context, applyId, item.ord, state);
      if (state === 'done') settleRow(context, item);
    });
  }
  context.state.write(() => {
    markApply(context, applyId, 'committed');
    context.history.clear();
  });
}

// Between "base removed" and "new entry put": the base is gone for good, so the put is finished; a
// directory whose files all went back but some of its directories not gets those again.
async function finishOrRestore(context: OverlayContext, data: StepData): Promise<JournalItem['state']> {
  const path = data.plan.path;
  const seen = await observe(context.lower, path);
  const { put, base } = data.plan;
  if (seen.kind === 'missing' && base.kind !== 'missing' && put !== null) {
    if (put.kind === 'directory') return (await makeDirectoryIfFree(context.lower, path)) === null ? 'done' : 'conflict';
    return (await casWrite(context.lower, path, data.newBytes ?? new Uint8Array(), { kind: 'missing' })) === null ? 'done' : 'conflict';
  }
  if (base.kind === 'directory' && seen.kind === 'directory') {
    for (const entry of sortManifest(data.beforeTree))
      if (entry.kind === 'directory') await makeDirectoryIfFree(context.lower, pathBelow(path, entry.path));
    return (await showsBefore(context.lower, data)) ? 'skipped' : 'conflict';
  }
  return 'conflict';
}

async function recoverAllOrNothing(context: OverlayContext, applyId: string, items: ReadonlyArray<JournalItem | RefusedItem>): Promise<void> {
  for (const item of [...items].reverse()) {
    if (item.state !== 'planned' && item.state !== 'done') continue;
    if (refused(context, item)) {
      context.state.write(() => markItem(context, applyId, item.ord, 'rolled_back'));
      continue;
    }
    // A step the lower shows not done has at most an undo cut short to finish; any other is taken
    // back by compare-and-swap against what it leaves.
    if (await showsBefore(context.lower, item.data)) await settlePut(context.lower, item.data);
    else await backward(context.lower, item.data, true);
    context.state.write(() => markItem(context, applyId, item.ord, 'rolled_back'));
  }
  context.state.write(() => markApply(context, applyId, 'rolled_back'));
}

// A journal is read back from the state file: a step at a path the rules refuse (a crafted journal)
// was never this overlay's, and is settled without asking the lower anything.
function refused(context: OverlayContext, item: JournalItem | RefusedItem): item is RefusedItem {
  return 'refusal' in item || refusalOf(context.lower, item.data.plan.path) !== null;
}
