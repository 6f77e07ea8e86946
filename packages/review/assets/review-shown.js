// What the page showed, and what it says when that moved: every apply and discard names the
// versions it showed (docs/overlay.md, "Versions"), so the bytes that land are the bytes shown.
import { element, plural, short } from './review-format.js';

/**
 * The versions of the listed changes an action on `paths` concerns: at, below or above each path,
 * and the other half of a rename there (the overlay takes a rename whole: docs/overlay.md, "Renames").
 */
export function versionsFor(changes, paths) {
  const near = (at, path) => at === path || at.startsWith(`${path}/`) || path.startsWith(`${at}/`);
  const concerns = (change) =>
    paths.some((path) => near(change.path, path) || [change.moved_from, change.moved_to].some((other) => other !== undefined && near(other, path)));
  return changes.filter(concerns).map((change) => change.version);
}

const REASON = {
  changed_on_disk: 'changed on disk since the agent started from it',
  created_on_disk: 'created on disk since the agent started',
  deleted_on_disk: 'deleted on disk since the agent started from it',
  changed_since_shown: 'the agent changed it after this page showed it',
  overlapping_edit: 'changed on disk where the agent changed it too, so these hunks stay in the overlay',
  rename_partner: 'half of a rename whose other half could not land, so neither was written',
};

/** True when a result says the agent moved something the page showed. */
export const movedSinceShown = (conflicts) => conflicts.some((conflict) => conflict.reason === 'changed_since_shown');

/** Fills the conflict box: each path (escaped by the server) and why nothing of it was written. */
export function showConflicts(conflicts) {
  const list = document.getElementById('conflict-list');
  list.replaceChildren(
    ...conflicts.map((conflict) => {
      const whole = conflict.reason === 'changed_since_shown' && conflict.path === '.';
      return element('li', {}, [
        element('code', { text: whole ? 'the list of changes' : conflict.path_text }),
        `: ${whole ? 'the agent changed, added or removed a change after this page listed them' : (REASON[conflict.reason] ?? conflict.reason)}`,
        conflict.hunks ? ` (hunks ${conflict.hunks.join(', ')})` : '',
        conflict.expected_sha256 || conflict.actual_sha256
          ? ` (expected ${short(conflict.expected_sha256)}, found ${short(conflict.actual_sha256)})`
          : '',
      ]);
    }),
  );
  document.getElementById('reload').hidden = !movedSinceShown(conflicts);
  document.getElementById('conflicts').hidden = conflicts.length === 0;
}

/**
 * The changes shown as rows: a new directory is no row of its own while a change below it is listed
 * (applying or discarding that change takes the directory with it); an empty new directory, and a
 * deleted or replaced one, still is. A rename is one row, at its new name, while both halves are listed.
 */
export function rowsOf(changes) {
  const within = (dir) => changes.some((other) => other.path.startsWith(`${dir.path}/`));
  const renamedAway = (change) => change.moved_to !== undefined && changes.some((other) => other.path === change.moved_to);
  return changes.filter((change) => !(change.kind === 'directory' && change.change === 'added' && within(change)) && !renamedAway(change));
}

/** True for the new half of a rename whose old half is listed too: one row, `old → new`. */
export const isRename = (change, changes) => change.moved_from !== undefined && changes.some((other) => other.path === change.moved_from);

const STEP = { j: 1, n: 1, k: -1, p: -1 };

/** 1 for the next change (j, n), -1 for the previous (k, p); undefined while typing or with a modifier. */
export function stepOf(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest?.('input:not([type=checkbox]), textarea, select')) return undefined;
  return STEP[event.key];
}

/** The row `step` away from the current path (the first or last when none is current), or undefined. */
export function stepTo(rows, current, step) {
  if (step === undefined || rows.length === 0) return undefined;
  const at = rows.findIndex((change) => change.path === current);
  return rows[at === -1 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step))];
}

/**
 * What the person is asked before an action that changes the files on disk for many paths at once or
 * drops the agent's only copy (undefined: nothing to ask). `total` is the count the totals line shows.
 */
export function questionFor(kind, paths, changes, total, lastApply) {
  if (kind === 'discard') {
    const one = paths?.length === 1 ? changes.find((change) => change.path === paths[0]) : undefined;
    const named = one !== undefined && isRename(one, changes) ? `the rename ${one.moved_from_text} → ${one.path_text}` : one?.path_text;
    const what = paths === undefined ? 'every change' : named !== undefined ? named : plural(paths.length, 'change');
    return `Discard ${what}? The agent's version is dropped and cannot be brought back.`;
  }
  if (kind === 'apply' && paths === undefined)
    return `Apply all ${plural(total, 'change')} to the files on disk? Undo last apply can take them back.`;
  if (kind === 'undo' && lastApply != null) {
    return `Undo the last apply (${plural(lastApply.applied.length, 'path')}, made at ${lastApply.at})? The files it wrote go back to what was on disk before it.`;
  }
  return undefined;
}
