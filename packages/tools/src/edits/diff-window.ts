import type { ChangedSpan } from './apply-edits.js';
import { DIFF_CONTEXT_LINES } from './unified-diff.js';

/** Where the lines a diff must look at lie: `[start, length - cut)` of both sides, from 0-based line `firstLine`. */
export interface DiffWindow {
  readonly start: number;
  readonly cut: number;
  readonly firstLine: number;
}

/** A text or the bytes of ASCII-compatible text: all the window needs is where its newlines are. */
export type NewlineSearch = (from: number) => number;

/** The newline searches of a string, or of bytes in an encoding where byte 0x0A is always a newline. */
export function newlinesOf(piece: string | Uint8Array): { readonly next: NewlineSearch; readonly previous: NewlineSearch } {
  if (typeof piece === 'string') {
    return { next: (from) => piece.indexOf('\n', from), previous: (from) => (from < 0 ? -1 : piece.lastIndexOf('\n', from)) };
  }
  return { next: (from) => piece.indexOf(0x0a, from), previous: (from) => (from < 0 ? -1 : piece.lastIndexOf(0x0a, from)) };
}

/**
 * Cuts both sides of an edit down to the whole lines around what changed, with the context lines
 * a unified diff shows on either side, so a one-line edit of a large file is diffed (and, for
 * bytes, decoded) over a few lines instead of all of them. Outside the window the two sides hold
 * the same lines, so the diff of the window, shifted by `firstLine`, is the diff of the whole.
 * `length` and `newlines` describe the old side.
 */
export function diffWindow(length: number, newlines: ReturnType<typeof newlinesOf>, span: ChangedSpan): DiffWindow {
  // Every newline before changedFrom is in the shared prefix, so a cut after one is a line start on both sides.
  let start = newlines.previous(span.changedFrom - 1) + 1;
  for (let line = 0; line < DIFF_CONTEXT_LINES && start > 0; line++) start = newlines.previous(start - 2) + 1;
  // Searching from the first byte of the shared suffix keeps every newline found inside it, so the
  // cut after one is a line end on both sides too: the end of the changed line, then the context.
  let end = length;
  for (let line = 0, from = length - span.unchangedTail; line <= DIFF_CONTEXT_LINES; line++) {
    const found = newlines.next(from);
    if (found === -1) {
      end = length;
      break;
    }
    end = found + 1;
    from = end;
  }
  let firstLine = 0;
  for (let at = newlines.next(0); at !== -1 && at < start; at = newlines.next(at + 1)) firstLine++;
  return { start, cut: length - end, firstLine };
}
