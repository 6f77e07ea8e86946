import type { ApprovalDecision, ApprovalRequest, Approver } from '@libos/core';
import { currentCall } from './current-call.js';

/** Ten minutes for a person to answer; the client's own call timeout usually ends it sooner. */
const DEFAULT_TIMEOUT_MS = 600_000;

/**
 * The sentence shown to the person: the runtime's own, already escaped for display (a path
 * holding CR, ANSI escapes or bidirectional overrides shows them as `\u{202E}`-style escapes).
 */
export function approvalMessage(request: ApprovalRequest): string {
  return `libos: ${request.message}`;
}

/**
 * An approver that asks the MCP client's user through form elicitation; give it to `createRuntime`
 * and serve that runtime with this package. The client asked is the one of the session whose call
 * needs the approval (any number of sessions may share the runtime). Accept approves, decline
 * rejects; a call outside an MCP session, a client without form elicitation, a cancel, a timeout
 * or any error is `unavailable` (the call then fails with `approval_required`).
 */
export function createElicitationApprover(options: { readonly timeoutMs?: number } = {}): Approver {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async (request, { signal }): Promise<ApprovalDecision> => {
    const call = currentCall.getStore();
    // The client's capabilities are known only after `initialize`, so they are read per call.
    if (call?.server.getClientCapabilities()?.elicitation?.form === undefined) return 'unavailable';
    try {
      const answer = await call.server.elicitInput(
        { mode: 'form', message: approvalMessage(request), requestedSchema: { type: 'object', properties: {} } },
        { timeout: timeoutMs, relatedRequestId: call.requestId, ...(signal === undefined ? {} : { signal }) },
      );
      if (answer.action === 'accept') return 'approve';
      return answer.action === 'decline' ? 'reject' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  };
}
