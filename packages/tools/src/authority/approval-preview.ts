import { escapeForDisplay } from '@libos/core';

/** The longest preview shown to an approver, in UTF-16 units (line breaks included), so in characters however counted. */
export const PREVIEW_MAX_CHARACTERS = 256;

/** The most lines a preview shows. */
export const PREVIEW_MAX_LINES = 16;

/** Ends a preview that does not show all the content; escaped content never starts with `\[`. */
export const PREVIEW_CUT = '\\[the rest is not shown]';

// Enough bytes for PREVIEW_MAX_CHARACTERS whole characters of four bytes each, plus one cut one,
// so a large write never decodes more than this.
const PREVIEW_MAX_BYTES = 4 * (PREVIEW_MAX_CHARACTERS + 1);

const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * The start of the content for an approver, as lines: decoded as UTF-8 with bad bytes as U+FFFD,
 * each line escaped for display on its own (core's `escapeForDisplay`: CR, tab, controls,
 * separators, bidirectional and every default-ignorable code point as `\u{202E}`, backslashes
 * doubled), so the only real line breaks are the content's own line feeds. At most
 * PREVIEW_MAX_CHARACTERS units and PREVIEW_MAX_LINES lines; neither an escape nor a surrogate pair
 * is ever cut, and a preview that leaves anything out ends with a line PREVIEW_CUT.
 */
export function approvalPreview(bytes: Uint8Array): string {
  const lines = lenient.decode(bytes.subarray(0, PREVIEW_MAX_BYTES)).split('\n');
  const shown: string[] = [];
  let used = 0;
  let cut = bytes.byteLength > PREVIEW_MAX_BYTES;
  for (const [index, line] of lines.entries()) {
    const room = PREVIEW_MAX_CHARACTERS - used - (index > 0 ? 1 : 0);
    if (index >= PREVIEW_MAX_LINES || room < 0) {
      cut = true;
      break;
    }
    const whole = escapeForDisplay(line);
    const kept = whole.length <= room ? whole : escapeForDisplay(line, { maxLength: room });
    shown.push(kept);
    used += kept.length + (index > 0 ? 1 : 0);
    if (kept !== whole) {
      cut = true;
      break;
    }
  }
  return cut ? [...shown, PREVIEW_CUT].join('\n') : shown.join('\n');
}
