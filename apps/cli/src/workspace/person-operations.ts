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
 * to the overlay. The log is opened per operation; the agent's server may be writing it at the same
 * time (writers take turns). A writer that never lets go (a stuck process, an older libOS) makes the
 * operation fail after a bounded wait, naming the file, before anything changes.
 */
export function personOperations(overlay: Overlay, options: WorkspaceOptions): PersonOperations {
  if (options.audit === undefined) return overlay;
  const file = options.audit.file;
  return auditOverlay(overlay, {
    openLog: async () => {
      const log = await openAuditLog(options).catch((error: unknown) => {
        throw busyLog(error, file) ?? error;
      });
      if (log === undefined) return undefined;
      // The lock is first waited for at the session's first record, once the log is open.
      return {
        ...log,
        openSession: (info) =>
          log.openSession(info).catch((error: unknown) => {
            throw busyLog(error, file) ?? error;
          }),
      };
    },
    provider: `overlay over ${options.provider}`,
    root: options.root,
  });
}

/**
 * A log another writer kept past the wait (a stuck process, or an older libOS that held its log for
 * its whole run): the operation is refused before anything changes, as a LibosError the page
 * answers with a sentence (409), never a 500. At opening it comes wrapped by `openAuditLog`; at the
 * session's first record, as it is.
 */
function busyLog(error: unknown, file: string): LibosError | undefined {
  const cause = LibosError.is(error) ? error : error instanceof Error ? error.cause : undefined;
  if (!LibosError.is(cause) || cause.details?.reason !== 'writer_busy') return undefined;
  return new LibosError(
    'provider_failure',
    `The audit log ${escapeForDisplay(file)} is held by another process that does not let go of it (a stuck process, or a libOS older than this one), so this cannot be recorded there: nothing was changed. Stop that process and try again, or leave out --audit to act unrecorded.`,
    { effect: 'none', details: { reason: 'audit_log_busy' }, cause: error },
  );
}
