import { ROOT_PATH, compareCodePoints, isRootPath } from '@libos/core';
import { changeVersion, checkShown, holdsToShown, setVersion, shownConflict, vanished } from './change-version.js';
import type { OverlayContext } from '../overlay-context.js';
import { dropUnusedTexts } from '../state/overlay-texts.js';
import { checkDiscardHunks, hunksAt } from './apply-merge-options.js';
import { discardHunks } from './discard-hunks.js';
import type { DiscardOptions, DiscardResult, OverlayConflict } from '../overlay-types.js';
import { checkPaths, landingRows, selectedRows } from './select-rows.js';
import { refuseRenameHunks, renamePartners } from './rename-pairs.js';

/**
 * Drops the selected changes (all when no paths are given) and everything the overlay holds below
 * them, in one transaction: the agent sees the lower there again. Holding to what the person was
 * shown (docs/overlay.md, "Versions"), a path whose changes are not all versions shown is left whole.
 */
export function discardChanges(context: OverlayContext, options: DiscardOptions = {}): DiscardResult {
  const checked = checkPaths(options.paths);
  const shown = checkShown(options);
  checkDiscardHunks(options, shown, checked);
  // One write transaction: the check and the drop see the same rows, and no agent write comes between.
  return context.state.write(() => {
    if (shown.set !== undefined) {
      const selected = landingRows(context, checked);
      const now = setVersion(selected, renamePartners(context.state.db, selected));
      if (now !== shown.set) return { discarded: [], conflicts: [shownConflict('.', now)] };
    }
    const targets = checked === undefined || checked.some(isRootPath) ? [ROOT_PATH] : checked;
    const discarded: string[] = [];
    const conflicts: OverlayConflict[] = [];
    for (const target of targets) {
      const rows = selectedRows(context, [target]);
      const partners = renamePartners(context.state.db, rows);
      if (shown.changes !== undefined) {
        const moved = rows.filter((row) => !shown.changes?.has(changeVersion(row, partners)));
        const gone = vanished([target], rows);
        if (moved.length > 0 || gone.length > 0) {
          conflicts.push(...gone, ...moved.map((row) => shownConflict(row.path, changeVersion(row, partners))));
          continue;
        }
      }
      const hunks = hunksAt(options.hunks, target);
      if (hunks !== undefined) refuseRenameHunks(partners, { [target]: hunks });
      if (hunks !== undefined) {
        discardHunks(context, target, hunks);
        discarded.push(target);
        continue;
      }
      discarded.push(...rows.map((row) => row.path));
      if (isRootPath(target)) {
        context.state.db.prepare('DELETE FROM entries').run();
        context.state.db.prepare('DELETE FROM segments').run();
      } else {
        context.rows.remove(target);
        context.rows.removeBelow(target);
        // The other half of a rename selected with it (`selectedRows`) goes too: a rename is dropped whole.
        for (const row of rows) if (row.path !== target && !row.path.startsWith(`${target}/`)) context.rows.remove(row.path);
      }
    }
    if (discarded.length > 0 || !holdsToShown(shown)) context.history.clear();
    dropUnusedTexts(context);
    return { discarded: [...new Set(discarded)].sort(compareCodePoints), conflicts };
  });
}
