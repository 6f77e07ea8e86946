// The review page: plain DOM, no framework. Every value from the server is set as text, never as
// markup, so a hostile file name or diff line stays text.
import { bytes, diffRows, element, plural, showTotals, sizeText } from './review-format.js';
import { apiWith, takeToken } from './review-api.js';
import { startApprovals } from './review-approvals.js';
import { addHunkPicks } from './review-hunks.js';
import { isRename, movedSinceShown, questionFor, rowsOf, showConflicts, stepOf, stepTo, versionsFor } from './review-shown.js';

const state = { token: null, changes: [], cursor: null, setVersion: null, selected: new Set(), current: null, lastApplyId: null, audit: false };
const $ = (id) => document.getElementById(id);
let api;

const MOVED = 'Nothing done: the agent changed what this page showed. Reload the changes to see them as they are now.';

const SYMBOL = { added: '+', modified: '~', deleted: '−', replaced: '±', renamed: '→' };

function say(text, isError = false) {
  const status = $('status');
  status.textContent = text;
  status.classList.toggle('error', isError);
}

function renderRows() {
  const rows = $('change-rows');
  rows.replaceChildren();
  const shown = rowsOf(state.changes);
  const renames = shown.filter((change) => isRename(change, state.changes));
  state.shownTotal = showTotals(state.totals, state.changes.length - shown.length - renames.length, renames);
  for (const change of shown) {
    const renamed = renames.includes(change);
    // A rename reads old → new; its path stays the new one, which the overlay pairs with the old.
    const label = renamed ? `${change.moved_from_text} → ${change.path_text}` : change.path_text;
    const kind = renamed ? 'renamed' : change.change;
    const selectId = `select-${state.changes.indexOf(change)}`;
    const checkbox = element('input', {
      type: 'checkbox',
      id: selectId,
      'aria-label': `Select ${label}`,
      onchange: (event) => {
        if (event.target.checked) state.selected.add(change.path);
        else state.selected.delete(change.path);
        updateButtons();
      },
    });
    checkbox.checked = state.selected.has(change.path);
    const open = element('button', {
      type: 'button',
      class: 'link',
      text: label,
      'aria-current': state.current === change.path ? 'true' : 'false',
      'aria-label': `Show the diff of ${label}`,
      onclick: () => showDiff(change),
    });
    const badge = element('span', { class: `badge ${kind}`, text: `${SYMBOL[kind]} ${kind}` });
    const cells = [
      element('td', {}, [checkbox]),
      element('td', { class: 'path' }, [open]),
      element('td', {}, [badge]),
      element('td', { class: 'size', text: sizeText(change) }),
    ];
    if (state.audit) cells.push(element('td', { class: 'calls-cell', 'data-path': change.path }, [element('span', { class: 'hint', text: '…' })]));
    cells.push(
      element('td', { class: 'row-actions' }, [
        element('button', {
          type: 'button',
          class: 'small',
          text: 'Apply',
          'aria-label': `Apply ${label}`,
          onclick: () => act('apply', [change.path]),
        }),
        element('button', {
          type: 'button',
          class: 'small quiet',
          text: 'Discard',
          'aria-label': `Discard ${label}`,
          onclick: () => act('discard', [change.path]),
        }),
      ]),
    );
    rows.append(element('tr', { class: state.current === change.path ? 'current' : '' }, cells));
  }
  $('empty').hidden = state.changes.length > 0;
  $('changes').hidden = state.changes.length === 0;
  $('more').hidden = state.cursor === null;
  for (const cell of document.querySelectorAll('.calls-col')) cell.hidden = !state.audit;
  updateButtons();
  if (state.audit) void loadCalls(state.changes.map((change) => change.path));
}

async function loadCalls(paths) {
  if (paths.length === 0) return;
  const query = paths.map((path) => `path=${encodeURIComponent(path)}`).join('&');
  const { calls } = await api(`/api/calls?${query}`).catch(() => ({ calls: {} }));
  for (const cell of document.querySelectorAll('.calls-cell')) {
    const list = calls[cell.dataset.path] ?? [];
    cell.replaceChildren(
      list.length === 0
        ? element('span', { class: 'hint', text: 'none recorded' })
        : element(
            'ul',
            { class: 'calls' },
            list.map((call) =>
              element('li', {
                class: call.ok ? '' : 'failed',
                text: `#${call.seq} ${call.tool} · ${new Date(call.time).toLocaleTimeString()}${call.client ? ` · ${call.client}` : ''}${call.ok ? '' : ' (failed)'}`,
                title: call.time,
              }),
            ),
          ),
    );
  }
}

function updateButtons() {
  const shown = state.changes.length;
  $('apply-selected').disabled = state.selected.size === 0;
  $('discard-selected').disabled = state.selected.size === 0;
  $('apply-all').disabled = shown === 0;
  $('discard-all').disabled = shown === 0;
  $('undo').disabled = state.lastApplyId === null;
  // Whoever made it (this page or a command), say which apply the button takes back.
  $('undo').title =
    state.lastApply == null
      ? 'No apply to undo'
      : `Undo the apply of ${plural(state.lastApply.applied.length, 'path')} made at ${state.lastApply.at}: ${state.lastApply.applied_text.slice(0, 5).join(', ')}${state.lastApply.applied.length > 5 ? ', …' : ''}`;
  const all = $('select-all');
  all.checked = shown > 0 && state.changes.every((change) => state.selected.has(change.path));
  all.disabled = shown === 0;
}

async function showDiff(change) {
  state.current = change.path;
  renderRows();
  const view = $('diff-view');
  $('diff-hint').hidden = true;
  view.hidden = false;
  view.replaceChildren(element('p', { class: 'hint', text: 'Loading…' }));
  try {
    const { text, truncated, versions } = await api(`/api/diff?path=${encodeURIComponent(change.path)}`);
    // An action on this change names what this diff showed: the versions it was made from.
    for (const { path, version } of versions) {
      const listed = state.changes.find((item) => item.path === path);
      if (listed !== undefined) listed.version = version;
    }
    state.currentVersion = versions.find((item) => item.path === change.path)?.version ?? null;
    const lines = text.replace(/\n$/, '').split('\n');
    const binary = lines.find((line) => line.startsWith('Binary files '));
    view.setAttribute(
      'aria-label',
      `Diff of ${isRename(change, state.changes) ? `${change.moved_from_text} → ${change.path_text}` : change.path_text}`,
    );
    if (binary !== undefined && change.kind === 'file') {
      view.replaceChildren(
        element('div', { class: 'binary' }, [
          element('strong', { text: 'Binary file: not shown as text.' }),
          element('dl', {}, [
            element('dt', { text: 'Before' }),
            element('dd', { text: change.base ? `${bytes(change.base.size_bytes)}, SHA-256 ${change.base.sha256}` : 'no file' }),
            element('dt', { text: 'After' }),
            element('dd', { text: change.current ? `${bytes(change.current.size_bytes)}, SHA-256 ${change.current.sha256}` : 'no file' }),
          ]),
          element('pre', { class: 'diff-line meta', text: binary }),
        ]),
      );
    } else {
      view.replaceChildren(element('div', { class: 'diff-rows' }, diffRows(lines, truncated)));
      // A rename lands or is dropped whole: no hunk of it is offered on its own.
      if (!isRename(change, state.changes)) addHunkPicks(view, change.path_text, (kind, hunks) => act(kind, [change.path], 'per_file', hunks));
    }
    view.focus();
  } catch (error) {
    view.replaceChildren(element('p', { class: 'status error', text: error.message }));
  }
}

async function act(kind, paths, mode, hunks) {
  const question = questionFor(kind, paths, state.changes, state.shownTotal, state.lastApply);
  if (question !== undefined && !confirm(question)) return;
  // The versions shown: of the whole listing for "all", of each listed change a selection concerns.
  const body = paths === undefined ? { shown_set: state.setVersion } : { paths, shown: versionsFor(state.changes, paths) };
  if (hunks !== undefined) body.hunks = { [paths[0]]: hunks }; // the checked hunks of the one path on screen
  try {
    say('Working…');
    if (kind === 'apply') {
      const result = await api('/api/apply', { ...body, mode: mode ?? 'per_file' });
      showConflicts(result.conflicts);
      const nothing = mode === 'all_or_nothing' && result.conflicts.length > 0;
      if (movedSinceShown(result.conflicts) && result.applied.length === 0) return say(MOVED, true);
      say(
        nothing
          ? `Nothing applied: ${plural(result.conflicts.length, 'conflict')}, and Apply all changes everything or nothing.`
          : `Applied ${plural(result.applied.length, 'change')}${result.conflicts.length > 0 ? `; ${plural(result.conflicts.length, 'conflict')} left as they are` : ''}.`,
      );
    } else if (kind === 'discard') {
      const result = await api('/api/discard', body);
      showConflicts(result.conflicts);
      if (result.discarded.length === 0 && movedSinceShown(result.conflicts)) return say(MOVED, true);
      say(
        `Discarded ${plural(result.discarded.length, 'change')}${result.conflicts.length > 0 ? `; ${plural(result.conflicts.length, 'conflict')} left as they are` : ''}.`,
      );
    } else {
      const result = await api('/api/undo', { apply_id: state.lastApplyId });
      showConflicts(result.conflicts);
      say(
        `Undid the last apply: ${plural(result.restored.length, 'path')} restored${result.conflicts.length > 0 ? `; ${plural(result.conflicts.length, 'conflict')}` : ''}.`,
      );
    }
    for (const path of paths ?? [...state.selected]) state.selected.delete(path);
    await refresh();
  } catch (error) {
    say(error.message, true);
  }
}

async function refresh() {
  const page = await api('/api/changes');
  // Started without --overlay: the page answers pending approvals only.
  if (page.no_overlay) {
    $('totals').textContent = 'No overlay: this page lists the calls waiting for your approval.';
    for (const part of document.querySelectorAll('.actions, .layout, .skip')) part.hidden = true;
    return;
  }
  state.changes = page.changes;
  state.cursor = page.next_cursor;
  // The first page's version covers every change, all pages alike: "all" means exactly those.
  state.setVersion = page.set_version;
  state.lastApplyId = page.last_apply_id;
  state.lastApply = page.last_apply;
  state.audit = page.audit;
  const known = new Set(state.changes.map((change) => change.path));
  for (const path of [...state.selected]) if (!known.has(path)) state.selected.delete(path);
  const current = state.changes.find((change) => change.path === state.current);
  if (state.current !== null && !known.has(state.current)) {
    state.current = null;
    $('diff-view').hidden = true;
    $('diff-hint').hidden = false;
  }
  state.totals = page.totals;
  renderRows();
  // A diff on screen that is no longer the change listed is shown again, as it is now.
  if (current !== undefined && current.version !== state.currentVersion) await showDiff(current);
}

async function more() {
  const page = await api(`/api/changes?cursor=${encodeURIComponent(state.cursor)}`);
  state.changes = state.changes.concat(page.changes);
  state.cursor = page.next_cursor;
  renderRows();
}

/** j or n: the next change's diff; k or p: the previous one (review-shown.js, `stepOf`). */
function onKey(event) {
  const next = stepTo(rowsOf(state.changes), state.current, stepOf(event));
  if (next === undefined) return;
  event.preventDefault();
  if (next.path !== state.current) void showDiff(next);
}

function start() {
  state.token = takeToken();
  if (state.token === null) {
    $('totals').textContent = 'No review token: open the address that libos review printed.';
    for (const button of document.querySelectorAll('.actions button')) button.disabled = true;
    return;
  }
  api = apiWith(state.token);
  startApprovals(api, say);
  $('apply-selected').addEventListener('click', () => act('apply', [...state.selected]));
  $('discard-selected').addEventListener('click', () => act('discard', [...state.selected]));
  $('apply-all').addEventListener('click', () => act('apply', undefined, 'all_or_nothing'));
  $('discard-all').addEventListener('click', () => act('discard', undefined));
  $('undo').addEventListener('click', () => act('undo'));
  $('reload-button').addEventListener('click', () => {
    showConflicts([]);
    say('');
    refresh().catch((error) => say(error.message, true));
  });
  document.addEventListener('keydown', onKey);
  $('more').addEventListener('click', () => more().catch((error) => say(error.message, true)));
  $('select-all').addEventListener('change', (event) => {
    for (const change of state.changes) {
      if (event.target.checked) state.selected.add(change.path);
      else state.selected.delete(change.path);
    }
    renderRows();
  });
  refresh().catch((error) => {
    $('totals').textContent = '';
    say(error.message, true);
  });
}

start();
