import { LibosError, escapeForDisplay } from '@libos/core';
import { auditOverlay } from '@libos/audit';
import type { Overlay } from '@libos/provider-overlay';
import { openAuditLog } from './audit-options.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** The overlay operations a person runs, from a command or from the review page. */
export type PersonOperations = Pick<Overlay, 'changes' | 'diff' | 'history' | 'apply' | 'undoApply' | 'lastApply' | 'discard' | 'rewind' | 'fork'>;

/**
 * The one way every app runs a person's overlay operations (the `libos apply` family and `libos
 * review` alike): with `--audit FILE`, `@libos/audit`'s `auditOverlay` records each operation that
 * changes something before its answer, in a session of its own (docs/audit.md); reads go straight
 * to the overlay. The log is opened per operation, so a server holding it (one writer per file)
 * refuses the operation, naming the file, before anything changes.
 */
export function personOperations(overlay: Overlay, options: WorkspaceOptions): PersonOperations {
  if (options.audit === undefined) return overlay;
  const file = options.audit.file;
  return auditOverlay(overlay, {
    openLog: () =>
      openAuditLog(options).catch((error: unknown) => {
        throw busyLog(error, file) ?? error;
      }),
    provider: `overlay over ${options.provider}`,
    root: options.root,
  });
}

/**
 * A log another writer holds (the agent's server, one writer per log): the operation is refused
 * before anything changes, as a LibosError the page answers with a sentence (409), never a 500.
 */
function busyLog(error: unknown, file: string): LibosError | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!LibosError.is(cause, 'invalid_arguments') || cause.details?.reason !== 'writer_busy') return undefined;
  return new LibosError(
    'provider_failure',
    `The audit log ${escapeForDisplay(file)} is held by the agent's server while it runs, so this cannot be recorded there: nothing was changed. Stop the agent's server (or its client) and try again, or leave out --audit to act unrecorded.`,
    { effect: 'none', details: { reason: 'audit_log_busy' }, cause: error },
  );
}
