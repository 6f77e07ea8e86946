import { Buffer } from 'node:buffer';
import { type ChangedSpan, SpanTracker, type TextEdit, mismatch } from './apply-edits.js';

/** The edited bytes, how many replacements made them, and where they changed. */
export interface AppliedByteEdits extends ChangedSpan {
  readonly bytes: Buffer;
  readonly replacements: number;
}

/**
 * `applyEdits` on the bytes of valid UTF-8 instead of its decoded text, with the same outcome:
 * UTF-8 is self-synchronizing, so the encoding of a well-formed `old_text` occurs in valid UTF-8
 * exactly where the text occurs in the decoding, and counting and replacing occurrences byte by
 * byte gives the very bytes that decoding, editing and encoding would. It saves decoding and
 * encoding the whole file. Throws the same `edit_mismatch`; returns undefined where the text path
 * must decide instead (a text that is not well-formed, whose encoding would fail or could match
 * half a surrogate pair, or a size past `maxBytes`, which the text path judges in its own units).
 */
export function applyUtf8Edits(body: Buffer, edits: readonly TextEdit[], maxBytes: number): AppliedByteEdits | undefined {
  if (!edits.every((edit) => edit.old_text.isWellFormed() && edit.new_text.isWellFormed())) return undefined;
  let bytes = body;
  let replacements = 0;
  const span = new SpanTracker(body.length);
  for (const [index, edit] of edits.entries()) {
    const oldBytes = Buffer.from(edit.old_text, 'utf8');
    const newBytes = Buffer.from(edit.new_text, 'utf8');
    const first = bytes.indexOf(oldBytes);
    if (first === -1) throw mismatch(index, 0);
    // Overlapping occurrences count for the uniqueness rule; replace_all takes them without overlap.
    const step = edit.replace_all ? oldBytes.length : 1;
    let count = 0;
    let last = first;
    for (let at = first; at !== -1; at = bytes.indexOf(oldBytes, at + step)) {
      count++;
      last = at;
    }
    if (!edit.replace_all && count > 1) throw mismatch(index, count);
    // Measured before building, so a one-byte pattern with a huge replacement allocates nothing.
    const size = bytes.length + count * (newBytes.length - oldBytes.length);
    if (size > maxBytes) return undefined;
    const tail = bytes.length - last - oldBytes.length;
    bytes = replaceAll(bytes, oldBytes, newBytes, first, size);
    span.replaced(first, tail, size);
    replacements += count;
  }
  return { bytes, replacements, ...span.result() };
}

function replaceAll(bytes: Buffer, oldBytes: Buffer, newBytes: Buffer, first: number, size: number): Buffer {
  const output = Buffer.allocUnsafe(size);
  let read = 0;
  let written = 0;
  for (let at = first; at !== -1; at = bytes.indexOf(oldBytes, read)) {
    written += bytes.copy(output, written, read, at);
    written += newBytes.copy(output, written);
    read = at + oldBytes.length;
  }
  bytes.copy(output, written, read);
  return output;
}
