import type { Approver } from '@libos/core';
import { createTerminalApprover, type TerminalQuestion } from '../shell/terminal-approver.js';
import type { ApprovalsOptions } from './approvals-options.js';

/**
 * Where a person answers the runtime's `ask` grants: one entry per channel, as `backends.ts` has
 * one per backend. `create` makes the channel's approver from what the command hands it, loading
 * the channel's code only then, so a command pays only for the channel it uses. A new channel (a
 * web page, a chat, a webhook) is an entry here and the one command line that picks it
 * (CONTRIBUTING.md, the table's "approval channel" row); the runtime and the tools do not change.
 */
export interface ApprovalChannel<Context> {
  /** One line for readers of this table. */
  readonly summary: string;
  create(context: Context): Promise<Approver>;
}

/** The CLI's approval channels, picked by name: `APPROVAL_CHANNELS.terminal.create(question)`. */
export const APPROVAL_CHANNELS = {
  terminal: {
    summary: 'the person at the terminal, asked on a line of input (libos shell, libos call --approve)',
    create: async (question: TerminalQuestion) => createTerminalApprover(question),
  } satisfies ApprovalChannel<TerminalQuestion>,
  mcp: {
    summary: "the MCP client's user, asked by elicitation in the session of the call (libos mcp, libos serve); else the fallback, if any",
    create: async (fallback: Approver | undefined) =>
      (await import('@libos/mcp')).createElicitationApprover(fallback === undefined ? {} : { fallback }),
  } satisfies ApprovalChannel<Approver | undefined>,
  pending: {
    summary: 'a person answering a pending-approvals directory on the review page or with libos approvals (libos mcp|serve --approvals DIR)',
    create: async (context: ApprovalsOptions & { readonly log: (line: string) => void }) =>
      (await import('../approvals/pending-approver.js')).pendingApprover(context),
  } satisfies ApprovalChannel<ApprovalsOptions & { readonly log: (line: string) => void }>,
} as const;
