import type { OverlayContext } from './overlay-context.js';
import type { DiscardResult } from './overlay-types.js';
import { checkPaths, selectedRows } from './select-rows.js';

/**
 * Drops the selected changes (all when no paths are given) and everything the overlay holds below
 * them, in one transaction: the agent sees the lower there again.
 */
export function discardChanges(context: OverlayContext, paths: readonly string[] | undefined): DiscardResult {
  const checked = checkPaths(paths);
  return context.state.write(() => {
    const discarded = selectedRows(context, checked).map((row) => row.path);
    if (checked === undefined || checked.includes('.')) {
      context.state.db.prepare('DELETE FROM entries').run();
      context.state.db.prepare('DELETE FROM segments').run();
    } else {
      for (const path of checked) {
        context.rows.remove(path);
        context.rows.removeBelow(path);
      }
    }
    context.history.clear();
    return { discarded };
  });
}
