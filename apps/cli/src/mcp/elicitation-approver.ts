import type { ApprovalDecision, ApprovalRequest, Approver } from '@libos/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
 * An approver that asks the MCP client's user through form elicitation. Accept approves, decline
 * rejects; a client without form elicitation, a cancel, a timeout or any error is `unavailable`
 * (the call then fails with `approval_required`). `getServer` is read per call because the client's
 * capabilities are known only after `initialize`.
 */
export function createElicitationApprover(getServer: () => Server | undefined, timeoutMs = DEFAULT_TIMEOUT_MS): Approver {
  return async (request, { signal }): Promise<ApprovalDecision> => {
    const server = getServer();
    if (server?.getClientCapabilities()?.elicitation?.form === undefined) return 'unavailable';
    // Related to the call that asked: over HTTP the question goes on that call's response stream.
    const call = currentCall.getStore();
    try {
      const answer = await server.elicitInput(
        { mode: 'form', message: approvalMessage(request), requestedSchema: { type: 'object', properties: {} } },
        {
          timeout: timeoutMs,
          ...(signal === undefined ? {} : { signal }),
          ...(call === undefined ? {} : { relatedRequestId: call.requestId }),
        },
      );
      if (answer.action === 'accept') return 'approve';
      return answer.action === 'decline' ? 'reject' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  };
}
