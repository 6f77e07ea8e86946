import type { Approver } from '@libos/core';
import { APPROVAL_CHANNELS } from './approval-channels.js';
import type { ApprovalsOptions } from './approvals-options.js';

/** The approver a server (libos mcp, libos serve) gives its runtime, and how to open its fallback. */
export interface McpApprover {
  readonly approver: Approver;
  /**
   * Opens the `--approvals` directory (nothing without it). Called once the workspace is open: the
   * workspace refuses the directory inside a served root first, so a refused one is never created there.
   */
  openPending(): Promise<void>;
}

/**
 * The client's elicitation; with `--approvals`, a client without elicitation (or a call from no
 * client) waits in the directory for the person instead (the `pending` channel, loaded only then).
 */
export async function mcpApprover(approvals: ApprovalsOptions | undefined, log: (line: string) => void): Promise<McpApprover> {
  if (approvals === undefined) return { approver: await APPROVAL_CHANNELS.mcp.create(undefined), openPending: async () => {} };
  let pending: Approver | undefined;
  const fallback: Approver = (request, context) => pending?.(request, context) ?? Promise.resolve('unavailable');
  return {
    approver: await APPROVAL_CHANNELS.mcp.create(fallback),
    async openPending() {
      pending ??= await APPROVAL_CHANNELS.pending.create({ ...approvals, log });
    },
  };
}
