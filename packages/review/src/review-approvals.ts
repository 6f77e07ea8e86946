import { escapeForDisplay, LibosError } from '@libos/core';

/** One call waiting for the person, as `ApprovalDirectory.list()` of `@libos/tools` gives it. */
export interface ReviewPendingApproval {
  readonly id: string;
  readonly expires_at: string;
  /** An answer lies beside it, which the waiting call has not taken yet. */
  readonly answered: boolean;
  readonly request: { readonly tool: string; readonly right: string; readonly path: string; readonly message: string };
}

/**
 * The pending approvals the page lists and answers (`libos review --approvals DIR`): an
 * `ApprovalDirectory` of `@libos/tools` is one. `answer` refuses (a LibosError) an id no call waits
 * on any more, or one already answered.
 */
export interface ReviewApprovals {
  list(): Promise<readonly ReviewPendingApproval[]>;
  answer(id: string, answer: 'approve' | 'reject'): Promise<unknown>;
}

/**
 * The list as the page shows it. The request's text is the server's own, already escaped; it is
 * escaped once more (lines kept) so that a request file written by anyone else still cannot put a
 * control or bidirectional character on the page. On genuine text this changes nothing.
 */
export async function shownApprovals(approvals: ReviewApprovals | undefined) {
  if (approvals === undefined) return { enabled: false, pending: [] };
  const pending = (await approvals.list()).map((entry) => ({
    id: entry.id,
    expires_at: entry.expires_at,
    answered: entry.answered,
    message_text: escapeForDisplay(entry.request.message, { multiline: true }).replaceAll('\t', '\\t'),
    tool_text: escapeForDisplay(entry.request.tool),
    right: escapeForDisplay(entry.request.right),
  }));
  return { enabled: true, pending };
}

/** `POST /api/approvals/answer {id, answer}`: one answer to one waiting call. */
export async function answerApproval(approvals: ReviewApprovals | undefined, body: Record<string, unknown>) {
  if (approvals === undefined) throw new LibosError('invalid_arguments', 'This page was started without --approvals: there is nothing to answer.');
  if (typeof body.id !== 'string' || (body.answer !== 'approve' && body.answer !== 'reject')) {
    throw new LibosError('invalid_arguments', 'Answer one approval: {"id": ID, "answer": "approve" | "reject"}.');
  }
  await approvals.answer(body.id, body.answer);
  return { id: body.id, answer: body.answer };
}
