import { LibosError, labelExceeds, type WorkspacePath } from '@libos/core';
import type { ToolContext } from '../tool-definition.js';

/**
 * Refuses to let bytes from `from` land at `to` under a lower label, or past a sink whose
 * `max_label` is below the label of `from` (`egress_denied`, before any probe). A label is policy
 * about a path, so the file keeps none of its own: bytes that move or are copied take the label of
 * where they land, and refusing a lower one keeps a secret secret. `verb` names the act in the
 * message (`Moving`, `Copying`).
 */
export function assertNoEgress(context: ToolContext, from: WorkspacePath, to: WorkspacePath, verb: string): void {
  const label = context.authority.labelOf(from);
  const sink = context.authority.sinkOf(to);
  if (!labelExceeds(label, context.authority.labelOf(to)) && (sink === null || !labelExceeds(label, sink))) return;
  // Like every denial it names only the right and the paths, never the labels themselves.
  throw new LibosError('egress_denied', `${verb} ${JSON.stringify(from)} to ${JSON.stringify(to)} is not permitted.`, {
    details: { right: 'write', path: to, from },
  });
}
