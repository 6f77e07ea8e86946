import { createHash } from 'node:crypto';
import {
  escapeForDisplay,
  LibosError,
  type AccessRequest,
  type AuditApproval,
  type DeletionLoss,
  type ApprovalContent,
  type ApprovalDecision,
  type ApprovalRequest,
  type Approver,
} from '@libos/core';
import { approvalPreview } from './approval-preview.js';
import { approvalRejectedError, approvalRequiredError, unshowableChangeError } from './authority-errors.js';
import { diffPreview } from './diff-preview.js';

/**
 * What the approver is shown for one call: content fields only when the call writes (or moves) bytes.
 * Throws `approval_required` when an edit's change cannot be shown whole: no one is asked then.
 */
export function approvalRequestOf(
  request: AccessRequest,
  content: ApprovalContent | undefined = request.content,
  loss: DeletionLoss | undefined = undefined,
): ApprovalRequest {
  const bytes = content?.bytes;
  let preview: string | null = null;
  if (content?.diffLines !== undefined) {
    const diff = diffPreview(content.diffLines);
    if (diff.unshown !== undefined) throw unshowableChangeError(request.right, request.path, diff.unshown);
    preview = diff.text;
  } else if (content !== undefined && content.move === undefined) {
    preview = approvalPreview(content.bytes);
  }
  const fields = {
    tool: request.tool,
    right: request.right,
    path: escapeForDisplay(request.path),
    arguments_sha256: request.argumentsSha256,
    content_bytes: bytes === undefined ? null : bytes.byteLength,
    content_sha256: bytes === undefined ? null : createHash('sha256').update(bytes).digest('hex'),
    preview,
  };
  const sentence = approvalSentence(fields, request.path, content);
  return { ...fields, message: loss === undefined ? sentence : `${sentence} ${lossSentence(loss)}` };
}

/** What a delete would take away, in numbers only (no name), so it adds no free text to the question. */
function lossSentence(loss: DeletionLoss): string {
  const count = (value: number, one: string, many: string) => `${loss.complete ? '' : 'at least '}${value} ${value === 1 ? one : many}`;
  const parts = [count(loss.files, 'file', 'files'), count(loss.bytes, 'byte', 'bytes')];
  const whole =
    loss.directories === 0 ? `${parts[0]} (${parts[1]})` : `${parts[0]} (${parts[1]}) in ${count(loss.directories, 'directory', 'directories')}`;
  return `It would delete ${whole}${loss.complete ? '' : ': counting stopped there'}.`;
}

/** A path for a sentence: escaped and quoted, its quotes escaped too. */
function quotedPath(path: string): string {
  return path === '.' ? 'the workspace root (.)' : `"${escapeForDisplay(path, { quotes: true })}"`;
}

/**
 * The question for a person. The path is escaped and quoted with its quotes escaped too, so no
 * name can end the quotes early and write the rest of the sentence itself; the preview, the only
 * other free text, comes last.
 */
function approvalSentence(fields: Omit<ApprovalRequest, 'message'>, path: string, content: ApprovalContent | undefined): string {
  let sentence = `Allow ${escapeForDisplay(fields.tool)} to ${fields.right} ${quotedPath(path)}?`;
  if (fields.content_bytes !== null) {
    const size = `${fields.content_bytes} ${fields.content_bytes === 1 ? 'byte' : 'bytes'} (SHA-256 ${fields.content_sha256})`;
    sentence +=
      content?.move === undefined
        ? ` It would write ${size}.`
        : ` It would move the file ${quotedPath(content.move.from)} to ${quotedPath(content.move.to)}: ${size}.`;
  }
  // The diff and the preview keep their lines: each is escaped on its own, so only these line feeds
  // are real, and each preview line sits behind a `  | ` margin, so no content line can pass for
  // the question or its answer.
  if (fields.preview !== null && fields.preview !== '')
    sentence +=
      content?.diffLines === undefined
        ? ` Preview:\n${fields.preview
            .split('\n')
            .map((line) => `  | ${line}`)
            .join('\n')}`
        : ` Change:\n${fields.preview}`;
  return sentence;
}

/**
 * Asks the approver about exactly this call; nothing is remembered, so a later call asks again.
 * Resolves only on `approve`. No approver, `unavailable`, an unknown answer, a thrown approver, an
 * aborted call or a timeout give `approval_required`; `reject` gives `approval_rejected`.
 */
export async function requestApproval(
  approver: Approver | undefined,
  request: AccessRequest,
  timeoutMs: number | undefined,
  onAnswer: (approval: AuditApproval) => void = () => {},
): Promise<void> {
  let shown: string | null = null;
  let reason: string | undefined;
  const required = () => {
    onAnswer({ answer: 'unanswered', shown_sha256: shown });
    return approvalRequiredError(request.right, request.path, reason);
  };
  if (approver === undefined || request.signal?.aborted) throw required();
  // Only now, with someone to ask, may an edit read the file to show what it would change.
  const content = request.content ?? (await request.prepareContent?.());
  const loss = await request.prepareLoss?.();
  if (request.signal?.aborted) throw required();
  const approval = approvalRequestOf(request, content, loss);
  shown = createHash('sha256').update(approval.message).digest('hex');
  // A referenced timer, unlike AbortSignal.timeout: a process waiting only on an approver must stay
  // alive until the timeout answers the call, not exit with the call unsettled.
  const timeout = timeoutMs === undefined ? undefined : new AbortController();
  const timer = timeout === undefined ? undefined : setTimeout(() => timeout.abort(), timeoutMs);
  const signals = [request.signal, timeout?.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  const signal = signals.length === 0 ? undefined : signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
  let decision: ApprovalDecision | 'none';
  try {
    const decided = await decide(approver, approval, signal);
    decision = typeof decided === 'string' ? decided : 'none';
    if (typeof decided !== 'string') reason = decided.reason;
  } finally {
    clearTimeout(timer);
  }
  // An answer that arrives after the call was abandoned approves nothing.
  if (decision === 'approve' && signal?.aborted !== true) {
    onAnswer({ answer: 'approved', shown_sha256: shown });
    return;
  }
  if (decision === 'reject') {
    onAnswer({ answer: 'rejected', shown_sha256: shown });
    throw approvalRejectedError(request.right, request.path);
  }
  throw required();
}

/**
 * The approver's answer; an approver that throws gives no answer, and one that throws an
 * `approval_required` LibosError gives its message as the reason no answer came.
 */
async function decide(
  approver: Approver,
  approval: ApprovalRequest,
  signal: AbortSignal | undefined,
): Promise<ApprovalDecision | 'none' | { readonly reason: string }> {
  let stopWaiting: (() => void) | undefined;
  const abandoned = new Promise<'none'>((resolve) => {
    if (signal === undefined) return;
    stopWaiting = () => resolve('none');
    signal.addEventListener('abort', stopWaiting, { once: true });
  });
  try {
    const answer = Promise.resolve()
      .then(() => approver(approval, signal === undefined ? {} : { signal }))
      .then(
        (decision) => (decision === 'approve' || decision === 'reject' ? decision : 'unavailable'),
        (error: unknown) => (LibosError.is(error) && error.code === 'approval_required' ? { reason: error.message } : ('none' as const)),
      );
    return await Promise.race([answer, abandoned]);
  } finally {
    if (stopWaiting !== undefined) signal?.removeEventListener('abort', stopWaiting);
  }
}
