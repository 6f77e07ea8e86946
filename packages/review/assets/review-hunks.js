// Hunks on the page (docs/overlay.md, "Hunks"): a checkbox on each numbered hunk of the agent's
// change, and buttons that apply or discard the checked ones, naming the version the diff showed.
// The merged preview and the verdict lines of a file the person edited come from the server as
// `#` lines; the preview's own hunks carry no number, so they get no checkbox.
import { element } from './review-format.js';

const NUMBERED = / #(\d+)$/;

/** Puts a checkbox in each numbered hunk header of `view`, and the toolbar below; `act(kind, hunks)` runs a button. */
export function addHunkPicks(view, pathText, act) {
  const picks = [];
  for (const row of view.querySelectorAll('.diff-row.hunk')) {
    const match = NUMBERED.exec(row.textContent ?? '');
    if (match === null) continue;
    const hunk = Number(match[1]);
    const box = element('input', { type: 'checkbox', class: 'hunk-pick', 'aria-label': `Hunk ${hunk} of ${pathText}` });
    box.dataset.hunk = String(hunk);
    row.prepend(box);
    picks.push(box);
  }
  if (picks.length === 0) return;
  const checked = () => picks.filter((box) => box.checked).map((box) => Number(box.dataset.hunk));
  const apply = element('button', { type: 'button', text: 'Apply checked hunks', disabled: 'disabled' });
  const discard = element('button', { type: 'button', class: 'danger', text: 'Discard checked hunks', disabled: 'disabled' });
  const update = () => {
    const none = checked().length === 0;
    apply.disabled = none;
    discard.disabled = none;
  };
  for (const box of picks) box.addEventListener('change', update);
  apply.addEventListener('click', () => act('apply', checked()));
  discard.addEventListener('click', () => act('discard', checked()));
  view.prepend(element('div', { class: 'hunk-actions', role: 'toolbar', 'aria-label': `Hunks of ${pathText}` }, [apply, discard]));
}
