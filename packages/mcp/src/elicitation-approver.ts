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

/**
 * An approver that asks the MCP client's user through form elicitation; give it to `createRuntime`
 * and serve that runtime with this package. The client asked is the one whose call needs the
 * approval (any number of sessions and stateless clients may share the runtime): a 2025-era
 * session's client by an elicitation request, a 2026-07-28 client by an `input_required` answer.
 * Accept approves, decline rejects; a call outside MCP, a client without form elicitation, a
 * cancel, a timeout or any error is `unavailable` (the call then fails with `approval_required`).
 */
export function createElicitationApprover(options: { readonly timeoutMs?: number } = {}): Approver {
  const timeoutMs = options.timeoutMs ?? APPROVAL_WINDOW_MS;
  return async (request, { signal }): Promise<ApprovalDecision> => {
    const call = currentCall.getStore();
    if (call === undefined) return 'unavailable';
    const timeout = AbortSignal.timeout(timeoutMs);
    return call.ask(request, signal === undefined ? timeout : AbortSignal.any([signal, timeout])).catch(() => 'unavailable' as const);
  };
}
