import type { FileAuditLog, OverlayOperation } from './file-audit-log.js';

/**
 * Records one overlay operation a person ran (`libos apply|undo-apply|discard|rewind --audit FILE`)
 * in its own session of `log`: a start record, the operation, an end record.
 */
export async function recordOverlayOperation(
  log: FileAuditLog,
  operation: OverlayOperation,
  context: { readonly root?: string } = {},
): Promise<void> {
  const session = await log.openSession({ provider: 'overlay', ...(context.root === undefined ? {} : { root: context.root }) });
  try {
    await session.recordOperation(operation);
  } finally {
    await session.end();
  }
}
