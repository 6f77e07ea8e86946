// What the page showed, and what it says when that moved: every apply and discard names the
// versions it showed (docs/overlay.md, "Versions"), so the bytes that land are the bytes shown.
import { element, short } from './review-format.js';

/** The versions of the listed changes an action on `paths` concerns: at, below or above each path. */
export function versionsFor(changes, paths) {
  const concerns = (change) => paths.some((path) => change.path === path || change.path.startsWith(`${path}/`) || path.startsWith(`${change.path}/`));
  return changes.filter(concerns).map((change) => change.version);
}

const REASON = {
  changed_on_disk: 'changed on disk since the agent started from it',
  created_on_disk: 'created on disk since the agent started',
  deleted_on_disk: 'deleted on disk since the agent started from it',
  changed_since_shown: 'the agent changed it after this page showed it',
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
        conflict.expected_sha256 || conflict.actual_sha256
          ? ` (expected ${short(conflict.expected_sha256)}, found ${short(conflict.actual_sha256)})`
          : '',
      ]);
    }),
  );
  document.getElementById('reload').hidden = !movedSinceShown(conflicts);
  document.getElementById('conflicts').hidden = conflicts.length === 0;
}
