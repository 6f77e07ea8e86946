import type { ApprovalDecision, ApprovalRequest, Approver } from '@libos/core';
import { currentCall } from './current-call.js';

/** Ten minutes for a person to answer; the client's own call timeout usually ends it sooner. */
export const APPROVAL_WINDOW_MS = 600_000;

/**
 * The sentence shown to the person: the runtime's own, already escaped for display (a path
 * holding CR, ANSI escapes or bidirectional overrides shows them as `\u{202E}`-style escapes).
 */
export function approvalMessage(request: ApprovalRequest): string {
  return `libos: ${request.message}`;
}

/** Options of `createElicitationApprover`. */
export interface ElicitationApproverOptions {
  readonly timeoutMs?: number;
  /**
   * Who answers when the call's client cannot be asked: a client without form elicitation, or a
   * call from outside MCP (e.g. `createDirectoryApprover` from `@libos/tools`, a directory of pending
   * approvals a person answers on the review page or with `libos approvals`). Default: nobody
   * (`unavailable`, so the call fails with `approval_required`).
   */
  readonly fallback?: Approver;
}

/**
 * An approver that asks the MCP client's user through form elicitation; give it to `createRuntime`
 * and serve that runtime with this package. The client asked is the one whose call needs the
 * approval (any number of sessions and stateless clients may share the runtime): a 2025-era
 * session's client by an elicitation request, a 2026-07-28 client by an `input_required` answer.
 * Accept approves, decline rejects; a cancel, a timeout or any error is `unavailable` (the call
 * then fails with `approval_required`). A call outside MCP or from a client without form
 * elicitation goes to `fallback` when there is one, else is `unavailable` too.
 */
export function createElicitationApprover(options: ElicitationApproverOptions = {}): Approver {
  const timeoutMs = options.timeoutMs ?? APPROVAL_WINDOW_MS;
  const { fallback } = options;
  return async (request, context): Promise<ApprovalDecision> => {
    const call = currentCall.getStore();
    if (call === undefined || !call.elicits) return fallback === undefined ? 'unavailable' : fallback(request, context);
    const { signal } = context;
    const timeout = AbortSignal.timeout(timeoutMs);
    return call.ask(request, signal === undefined ? timeout : AbortSignal.any([signal, timeout])).catch(() => 'unavailable' as const);
  };
}
