import type { FileAuditLog, FileAuditSession, OverlayOperation } from './file-audit-log.js';

/** What a person's overlay session records as served and where. */
export interface OverlaySessionContext {
  readonly root?: string;
  /** What the session served (default `overlay`), e.g. `overlay over local`. */
  readonly provider?: string;
}

/**
 * Records one overlay operation a person ran (`libos apply|undo-apply|discard|rewind --audit FILE`)
 * in its own session of `log`: a start record, the operation, an end record.
 */
export async function recordOverlayOperation(log: FileAuditLog, operation: OverlayOperation, context: OverlaySessionContext = {}): Promise<void> {
  await inOverlaySession(log, context, (session) => session.recordOperation(operation));
}

/**
 * Runs `body` inside a session of its own opened in `log` and ends the session after, whatever
 * `body` did. The session opens first, so a log that refuses it (a log inside the root) refuses
 * before `body` runs.
 */
export async function inOverlaySession<Result>(
  log: FileAuditLog,
  context: OverlaySessionContext,
  body: (session: FileAuditSession) => Promise<Result>,
): Promise<Result> {
  const session = await log.openSession({
    provider: context.provider ?? 'overlay',
    ...(context.root === undefined ? {} : { root: context.root }),
  });
  try {
    return await body(session);
  } finally {
    await session.end();
  }
}
