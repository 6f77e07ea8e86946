import { LibosError } from '@libos/core';

/** One exact replacement as the caller gave it. */
export interface TextEdit {
  readonly old_text: string;
  readonly new_text: string;
  readonly replace_all: boolean;
}

/**
 * Where the edits changed a sequence (text units or bytes): the first `changedFrom` items and the
 * last `unchangedTail` items are the same before and after, so a diff need only look between them.
 */
export interface ChangedSpan {
  readonly changedFrom: number;
  readonly unchangedTail: number;
}

/** The edited text, how many replacements made it, and where it changed. */
export interface AppliedEdits extends ChangedSpan {
  readonly text: string;
  readonly replacements: number;
}

/**
 * Applies edits in order, each to the text the previous one made. Without `replace_all` an
 * `old_text` must occur exactly once, overlapping occurrences counted (in `aaa`, `aa` is
 * ambiguous); with it every non-overlapping occurrence from the left is replaced. Throws
 * `edit_mismatch` ({edit, occurrences}) or `too_large` when the text would pass `maxUnits` UTF-16
 * units (no supported encoding writes fewer bytes than units, so it could not fit the byte bound).
 */
export function applyEdits(original: string, edits: readonly TextEdit[], maxUnits: number): AppliedEdits {
  let text = original;
  let replacements = 0;
  const span = new SpanTracker(original.length);
  edits.forEach((edit, index) => {
    const { old_text: oldText, new_text: newText } = edit;
    if (edit.replace_all) {
      const first = text.indexOf(oldText);
      if (first === -1) throw mismatch(index, 0);
      const last = text.lastIndexOf(oldText);
      const pieces = text.split(oldText);
      const count = pieces.length - 1;
      // Measured before joining, so a one-character pattern with a huge replacement allocates nothing.
      assertFits(text.length + count * (newText.length - oldText.length), maxUnits);
      const tail = text.length - last - oldText.length;
      text = pieces.join(newText);
      // The last occurrence replaced (without overlap) ends no later than the last one lastIndexOf finds.
      span.replaced(first, tail, text.length);
      replacements += count;
      return;
    }
    const first = text.indexOf(oldText);
    if (first === -1) throw mismatch(index, 0);
    if (text.indexOf(oldText, first + 1) !== -1) throw mismatch(index, countOverlapping(text, oldText, first));
    assertFits(text.length + newText.length - oldText.length, maxUnits);
    const tail = text.length - first - oldText.length;
    text = text.slice(0, first) + newText + text.slice(first + oldText.length);
    span.replaced(first, tail, text.length);
    replacements += 1;
  });
  return { text, replacements, ...span.result() };
}

/** Narrows the unchanged prefix and suffix as replacements land, in the coordinates of the text so far. */
export class SpanTracker {
  #from: number;
  #tail: number;

  constructor(length: number) {
    this.#from = length;
    this.#tail = length;
  }

  /**
   * One replacement left the first `from` and the last `tail` items of the text untouched and made
   * it `after` items long. A replace_all passes its first occurrence and the tail after its last.
   */
  replaced(from: number, tail: number, after: number): void {
    this.#from = Math.min(this.#from, from);
    this.#tail = Math.min(this.#tail, tail, after - this.#from);
  }

  result(): ChangedSpan {
    return { changedFrom: this.#from, unchangedTail: this.#tail };
  }
}

function countOverlapping(text: string, pattern: string, first: number): number {
  let count = 0;
  for (let at = first; at !== -1; at = text.indexOf(pattern, at + 1)) count++;
  return count;
}

/** The `edit_mismatch` error of edit `index`, which occurred `occurrences` times. */
export function mismatch(index: number, occurrences: number): LibosError {
  const found = occurrences === 0 ? 'does not occur in the file' : `occurs ${occurrences} times`;
  const hint = occurrences === 0 ? 'read the file again and copy the text exactly' : 'add surrounding lines to make it unique, or set replace_all';
  return new LibosError('edit_mismatch', `The old_text of edits[${index}] ${found}; ${hint}. Nothing was changed.`, {
    details: { edit: index, occurrences },
  });
}

function assertFits(units: number, maxUnits: number): void {
  if (units <= maxUnits) return;
  throw new LibosError('too_large', `The edited file would be larger than ${maxUnits} bytes (bounds.edit_max_bytes). Nothing was changed.`, {
    details: { max_bytes: maxUnits },
  });
}
