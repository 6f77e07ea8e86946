import { LibosError, type WorkspacePath } from '@libos/core';
import { activeApplies, loadJournal, markApply, markItem, settleRow, type JournalItem } from './apply-journal.js';
import { backward, restoreTree, showsAfter, showsBefore, type StepData } from './apply-steps.js';
import { asideName, casWrite, observe, settleAside, sortManifest } from './lower-cas.js';
import type { OverlayContext } from './overlay-context.js';

/** Puts back, newest first, what the done steps of an all-or-nothing apply changed; no row ever left the overlay. */
export async function rollBack(context: OverlayContext, applyId: string, done: readonly JournalItem[]): Promise<void> {
  for (const item of [...done].reverse()) {
    await backward(context.lower, item.data);
    context.state.write(() => markItem(context, applyId, item.ord, 'rolled_back'));
  }
  context.state.write(() => markApply(context, applyId, 'rolled_back'));
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
 * per-file apply keeps the steps that landed (their rows leave the overlay) and drops the rest; an
 * all-or-nothing apply is rolled back. Decided by what the lower holds, so nothing lands twice.
 */
export async function recoverApplies(context: OverlayContext): Promise<void> {
  const running = context.state.db
    .prepare<[], { apply_id: string; mode: string; pid: number }>("SELECT apply_id, mode, pid FROM applies WHERE state = 'running' ORDER BY at")
    .all();
  for (const apply of running) {
    if (activeApplies.has(apply.apply_id)) continue;
    if (apply.pid !== process.pid && alive(apply.pid)) continue;
    // Claim it, so two recovering processes never both redo it.
    const claimed = context.state.write(
      () =>
        context.state.db
          .prepare("UPDATE applies SET pid = ? WHERE apply_id = ? AND pid = ? AND state = 'running'")
          .run(process.pid, apply.apply_id, apply.pid).changes,
    );
    if (claimed !== 1) continue;
    activeApplies.add(apply.apply_id);
    try {
      if (apply.mode === 'all_or_nothing') await recoverAllOrNothing(context, apply.apply_id);
      else await recoverPerFile(context, apply.apply_id);
    } finally {
      activeApplies.delete(apply.apply_id);
    }
  }
}

/** Moves back or drops the files a crashed step had moved aside. */
async function settleAsides(context: OverlayContext, data: StepData): Promise<void> {
  const path = data.plan.path as WorkspacePath;
  const { base, put } = data.plan;
  if (base.kind === 'file' && put?.kind !== 'file') {
    await putBackAside(context, path, base.sha256, asideName(path, data.plan.tag));
  }
  if (base.kind === 'directory') {
    const entries = sortManifest(data.beforeTree);
    for (const [index, entry] of [...entries].reverse().entries()) {
      if (entry.kind !== 'file' || entry.sha256 === null) continue;
      const inner = `${path}/${entry.path}` as WorkspacePath;
      await putBackAside(context, inner, entry.sha256, asideName(inner, `${data.plan.tag}-${index}`));
    }
  }
}

// A file aside holding the base goes back to its name when that is free (the step is then undone
// and will be judged again), and is unlinked otherwise; anything else aside is put back as it is.
async function putBackAside(context: OverlayContext, path: WorkspacePath, sha256: string, aside: WorkspacePath): Promise<void> {
  const seen = await observe(context.lower, aside);
  if (seen.kind === 'missing') return;
  if (seen.kind === 'file' && seen.sha256 === sha256) {
    try {
      await context.lower.rename?.(aside, path, { overwrite: false });
      return;
    } catch (error) {
      if (!LibosError.is(error, 'already_exists')) throw error;
    }
  }
  await settleAside(context.lower, path, sha256, aside);
}

async function recoverPerFile(context: OverlayContext, applyId: string): Promise<void> {
  for (const item of loadJournal(context, applyId)) {
    if (item.state !== 'planned') continue;
    await settleAsides(context, item.data);
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

// Between "base removed" and "new entry put": the base is gone, so the put is finished; a
// directory caught half deleted is put back whole from the journal.
async function finishOrRestore(context: OverlayContext, data: StepData): Promise<JournalItem['state']> {
  const path = data.plan.path as WorkspacePath;
  const seen = await observe(context.lower, path);
  const { put, base } = data.plan;
  if (seen.kind === 'missing' && base.kind !== 'missing' && put !== null) {
    if (put.kind === 'directory') {
      await context.lower.makeDirectory(path, { parents: true, existOk: true });
      return 'done';
    }
    return (await casWrite(context.lower, path, data.newBytes ?? new Uint8Array(), { kind: 'missing' })) === null ? 'done' : 'conflict';
  }
  if (base.kind === 'directory' && seen.kind === 'directory') {
    return (await restoreTree(context.lower, path, data.beforeTree)) === null ? 'skipped' : 'conflict';
  }
  return 'conflict';
}

async function recoverAllOrNothing(context: OverlayContext, applyId: string): Promise<void> {
  const items = loadJournal(context, applyId);
  for (const item of [...items].reverse()) {
    if (item.state !== 'planned' && item.state !== 'done') continue;
    await settleAsides(context, item.data);
    if (await showsAfter(context.lower, item.data.plan)) await backward(context.lower, item.data);
    else if (!(await showsBefore(context.lower, item.data))) {
      const path = item.data.plan.path as WorkspacePath;
      const seen = await observe(context.lower, path);
      // Half done: the base was removed and nothing put yet, or a directory half deleted.
      if (item.data.plan.base.kind === 'file' && seen.kind === 'missing')
        await casWrite(context.lower, path, item.data.beforeBytes ?? new Uint8Array(), { kind: 'missing' });
      if (item.data.plan.base.kind === 'directory') {
        await restoreTree(context.lower, path, item.data.beforeTree);
      }
    }
    context.state.write(() => markItem(context, applyId, item.ord, 'rolled_back'));
  }
  context.state.write(() => markApply(context, applyId, 'rolled_back'));
}
