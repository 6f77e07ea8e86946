import type { ApprovalDecision, ApprovalRequest, Approver } from '@libos/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** Ten minutes for a person to answer; the client's own call timeout usually ends it sooner. */
const DEFAULT_TIMEOUT_MS = 600_000;

/** The sentence shown to the person: the tool, the right and the canonical path, plus what a write would put there. */
export function approvalMessage(request: ApprovalRequest): string {
  const target = request.path === '.' ? 'the workspace root (.)' : `"${request.path}"`;
  let message = `libos: allow ${request.tool} to ${request.right} ${target}?`;
  if (request.content_bytes !== null) {
    message += ` It would write ${request.content_bytes} ${request.content_bytes === 1 ? 'byte' : 'bytes'}`;
    message += request.content_sha256 === null ? '.' : ` (SHA-256 ${request.content_sha256}).`;
  }
  if (request.preview !== null && request.preview !== '') message += ` Preview: ${request.preview}`;
  return message;
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
    try {
      const answer = await server.elicitInput(
        { mode: 'form', message: approvalMessage(request), requestedSchema: { type: 'object', properties: {} } },
        { timeout: timeoutMs, ...(signal === undefined ? {} : { signal }) },
      );
      if (answer.action === 'accept') return 'approve';
      return answer.action === 'decline' ? 'reject' : 'unavailable';
    } catch {
      return 'unavailable';
    }
  };
}
