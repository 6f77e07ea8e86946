import { LibosError } from '@libos/core';
import { loadJournal, markApply, markItem, restoreRow } from './apply-journal.js';
import { backward, settlePut, showsBefore } from './apply-steps.js';
import type { OverlayContext } from '../overlay-context.js';
import type { LastApply, OverlayConflict, UndoApplyResult } from '../overlay-types.js';

/**
 * Puts back on disk what apply `applyId` replaced, newest step first, each by compare-and-swap
 * against what the apply left (a path changed since is a conflict and keeps its bytes), and puts
 * the changes back into the overlay. A step whose undo already landed (a crash) counts as restored.
 */
export async function undoApply(context: OverlayContext, applyId: string): Promise<UndoApplyResult> {
  const apply = context.state.db.prepare<[string], { state: string }>('SELECT state FROM applies WHERE apply_id = ?').get(applyId);
  if (apply === undefined)
    throw new LibosError('invalid_arguments', `No apply has the id '${applyId.slice(0, 80)}'.`, { details: { apply_id: applyId.slice(0, 80) } });
  if (apply.state !== 'committed' && apply.state !== 'undoing') {
    throw new LibosError('invalid_arguments', `The apply '${applyId}' cannot be undone: it is ${apply.state.replace('_', ' ')}.`, {
      details: { apply_id: applyId, state: apply.state },
    });
  }
  context.state.write(() => markApply(context, applyId, 'undoing'));
  const restored: string[] = [];
  const conflicts: OverlayConflict[] = [];
  for (const item of loadJournal(context, applyId).reverse()) {
    if (item.state !== 'done') continue;
    // A done step at a path no libOS call could have stored is a crafted journal: nothing is undone.
    if ('refusal' in item) throw item.refusal;
    // An undo cut short may have left the agent's file aside: it is finished first.
    await settlePut(context.lower, item.data);
    const conflict = (await showsBefore(context.lower, item.data)) ? null : await backward(context.lower, item.data, false);
    if (conflict !== null) {
      conflicts.push(conflict);
      continue;
    }
    restored.push(item.data.plan.path);
    context.state.write(() => {
      markItem(context, applyId, item.ord, 'undone');
      restoreRow(context, item);
    });
  }
  context.state.write(() => {
    markApply(context, applyId, conflicts.length === 0 ? 'undone' : 'committed');
    context.history.clear();
  });
  return { restored: restored.reverse(), conflicts };
}

/** The newest committed apply that still has a landed step, with those paths (rowid: the order applies began). */
export function lastApply(context: OverlayContext): LastApply | null {
  const { db } = context.state;
  const apply = db
    .prepare<[], { apply_id: string; mode: LastApply['mode']; at: string }>(
      "SELECT apply_id, mode, at FROM applies WHERE state = 'committed' AND EXISTS (SELECT 1 FROM apply_items AS item WHERE item.apply_id = applies.apply_id AND item.state = 'done') ORDER BY rowid DESC LIMIT 1",
    )
    .get();
  if (apply === undefined) return null;
  const applied = db
    .prepare<[string], { path: string }>("SELECT path FROM apply_items WHERE apply_id = ? AND state = 'done' ORDER BY ord")
    .all(apply.apply_id)
    .map((row) => row.path);
  return { ...apply, applied };
}
