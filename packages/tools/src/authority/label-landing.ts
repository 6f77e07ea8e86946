import { labelExceeds, type Authority, type Label, type WorkspacePath } from '@libos/core';

/**
 * Whether bytes labelled `label` would carry a lower label once they land at `to`. A label is policy
 * about a path (its `labels` rule, default `normal`), so bytes take the label of where they land:
 * every tool that puts labelled bytes somewhere (a move, an Object export) refuses such a landing,
 * or one chain of calls (export to a sink, then move or read it from there) would launder the label.
 */
export function landsLower(authority: Pick<Authority, 'labelOf'>, label: Label, to: WorkspacePath): boolean {
  return labelExceeds(label, authority.labelOf(to));
}
