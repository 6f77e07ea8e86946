import { escapeForDisplay } from '@libos/core';
import type { DiffResult, OverlayChange, OverlayConflict } from '@libos/provider-overlay';

/**
 * Text for a person (contract section 5): controls, separators, bidirectional and other format
 * characters written as `\u{202E}`, so no name or line can pose as another on the page. The page
 * shows these `*_text` fields and sends the raw `path` back, which names the change exactly.
 */
export const forPerson = (text: string): string => escapeForDisplay(text);

/** Each change with its path (and a rename's other path) as a person may read it. */
export function shownChanges(changes: readonly OverlayChange[]): (OverlayChange & { readonly path_text: string })[] {
  return changes.map((change) => ({
    ...change,
    path_text: forPerson(change.path),
    ...(change.moved_from === undefined ? {} : { moved_from_text: forPerson(change.moved_from) }),
    ...(change.moved_to === undefined ? {} : { moved_to_text: forPerson(change.moved_to) }),
  }));
}

/**
 * A diff whose every line is escaped on its own (tabs and backslashes kept as they are, so
 * ordinary text reads unchanged): a CR or an escape sequence can no longer rewrite a line, and a
 * line break inside a name cannot make a line that looks like a diff line.
 */
export function shownDiff(diff: DiffResult): DiffResult {
  const lines = diff.text.replace(/\n$/u, '').split('\n');
  const text = diff.text === '' ? '' : `${lines.map((line) => escapeForDisplay(line, { multiline: true })).join('\n')}\n`;
  return { ...diff, text };
}

/** A result whose conflicts carry their path as a person may read it. */
export function shownConflicts<Result extends { readonly conflicts: readonly OverlayConflict[] }>(result: Result): Result {
  return { ...result, conflicts: result.conflicts.map((conflict) => ({ ...conflict, path_text: forPerson(conflict.path) })) };
}
