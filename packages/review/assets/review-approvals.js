// The page's "Pending approvals": calls from MCP clients without elicitation wait for the person
// (`libos review --approvals DIR`). Each request's text is the elicitation's own, escaped by the
// server; it is set as text, never markup. An answer covers that one call only.
import { element } from './review-format.js';

const POLL_MS = 2000;
const $ = (id) => document.getElementById(id);
let shownIds = null;

function renderApprovals(list, api, say) {
  const ids = list.pending.map((entry) => entry.id).join(',');
  // Re-drawn only when the waiting calls change, so a person's focus on a button is not lost.
  if (ids === shownIds) return;
  shownIds = ids;
  $('approvals-empty').hidden = list.pending.length > 0;
  $('approvals-count').textContent = list.pending.length === 0 ? '' : ` (${list.pending.length})`;
  const items = list.pending.map((entry) => {
    const until = new Date(entry.expires_at).toLocaleTimeString();
    const answer = (kind) => () => answerOne(entry.id, kind, api, say);
    return element('li', { class: 'approval' }, [
      element('pre', { class: 'approval-text', text: entry.message_text }),
      element('p', { class: 'approval-meta', text: `Request ${entry.id} · ${entry.tool_text} · ${entry.right} · waits until ${until}` }),
      element('div', { class: 'approval-actions' }, [
        element('button', {
          type: 'button',
          class: 'primary',
          text: 'Approve',
          'aria-label': `Approve request ${entry.id}`,
          onclick: answer('approve'),
        }),
        element('button', { type: 'button', class: 'quiet', text: 'Reject', 'aria-label': `Reject request ${entry.id}`, onclick: answer('reject') }),
      ]),
    ]);
  });
  $('approval-list').replaceChildren(...items);
}

async function answerOne(id, kind, api, say) {
  for (const button of document.querySelectorAll('#approval-list button')) button.disabled = true;
  try {
    await api('/api/approvals/answer', { id, answer: kind });
    say(`${kind === 'approve' ? 'Approved' : 'Rejected'} request ${id}: the waiting call takes the answer now.`);
  } catch (error) {
    say(error.message, true);
  }
  shownIds = null;
  await loadApprovals(api, say);
}

async function loadApprovals(api, say) {
  const list = await api('/api/approvals');
  $('approvals').hidden = !list.enabled;
  if (list.enabled) renderApprovals(list, api, say);
  return list.enabled;
}

/** Shows the section when the page has `--approvals`, and keeps its list current. */
export function startApprovals(api, say) {
  const poll = () =>
    loadApprovals(api, say).then(
      (enabled) => enabled && setTimeout(poll, POLL_MS),
      (error) => {
        say(error.message, true);
        setTimeout(poll, POLL_MS);
      },
    );
  void poll();
}
