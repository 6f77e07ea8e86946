import { AsyncLocalStorage } from 'node:async_hooks';
import type { ApprovalDecision, ApprovalRequest } from '@libos/core';

/**
 * How the `tools/call` whose work is running asks its person. One runtime (so one approver) may
 * serve many sessions and both protocol generations: under 2025-era sessions the question goes to
 * that call's client as an elicitation related to the call (over Streamable HTTP it travels on the
 * call's own response stream); under 2026-07-28 the call answers `input_required` instead and the
 * approval comes back with the client's retry (approvals/approval-rounds.ts).
 */
export interface CallApprovals {
  /** Whether the call's client declared form elicitation: without it `ask` can only say `unavailable`. */
  readonly elicits: boolean;
  ask(request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalDecision>;
}

export const currentCall = new AsyncLocalStorage<CallApprovals>();
