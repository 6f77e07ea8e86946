import { UsageError } from '../usage-error.js';

/** The flags of the pending-approvals channel (`libos mcp|serve`), for `parseArgs`. */
export const APPROVALS_FLAGS = {
  approvals: { type: 'string' },
  'approval-wait': { type: 'string' },
} as const;

/** `--approvals DIR [--approval-wait SECONDS]`: where calls whose client cannot be asked wait, and how long. */
export interface ApprovalsOptions {
  readonly directory: string;
  readonly waitMs: number;
}

const DEFAULT_WAIT_SECONDS = 120;
const MAX_WAIT_SECONDS = 3600;

/** The channel's options, or undefined without `--approvals`; a bad value is a UsageError. */
export function approvalsOptionsFrom(command: string, values: Readonly<Record<string, unknown>>): ApprovalsOptions | undefined {
  const directory = typeof values.approvals === 'string' ? values.approvals : undefined;
  const wait = typeof values['approval-wait'] === 'string' ? values['approval-wait'] : undefined;
  if (directory === undefined) {
    if (wait !== undefined) throw new UsageError(`${command}: --approval-wait needs --approvals DIR (the wait is for a pending approval)`);
    return undefined;
  }
  if (directory === '') throw new UsageError(`${command}: --approvals needs a directory`);
  const seconds = wait === undefined ? DEFAULT_WAIT_SECONDS : /^\d{1,4}$/u.test(wait) ? Number(wait) : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_WAIT_SECONDS)) {
    throw new UsageError(`${command}: --approval-wait takes whole seconds from 1 to ${MAX_WAIT_SECONDS}, not '${wait}'`);
  }
  return { directory, waitMs: seconds * 1000 };
}
