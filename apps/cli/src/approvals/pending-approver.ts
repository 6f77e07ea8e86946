import { escapeForDisplay, type Approver } from '@libos/core';
import { ApprovalDirectory, createDirectoryApprover } from '@libos/tools';
import { UsageError } from '../usage-error.js';
import type { ApprovalsOptions } from '../workspace/approvals-options.js';

/**
 * The approver of `--approvals DIR`: calls whose client cannot be asked wait there for the person
 * (docs/mcp.md, "Pending approvals"). DIR is created 0700 when missing; one open to other users,
 * or not a directory, is refused at start-up (a UsageError).
 */
export async function pendingApprover(options: ApprovalsOptions & { readonly log: (line: string) => void }): Promise<Approver> {
  const directory = await ApprovalDirectory.open(options.directory).catch((error: unknown) => {
    throw new UsageError(`libos: --approvals ${error instanceof Error ? error.message : escapeForDisplay(String(error))}`);
  });
  options.log(
    `calls needing approval from a client without elicitation wait in ${escapeForDisplay(directory.path)}; answer with libos approvals or libos review --approvals`,
  );
  return createDirectoryApprover(directory, { waitMs: options.waitMs, log: options.log });
}
