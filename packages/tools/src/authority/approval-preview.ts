import { escapeForDisplay } from '@libos/core';

/** The longest preview shown to an approver, in UTF-16 units, so in characters however counted. */
export const PREVIEW_MAX_CHARACTERS = 256;

// Enough bytes for PREVIEW_MAX_CHARACTERS whole characters of four bytes each, plus one cut one,
// so a large write never decodes more than this.
const PREVIEW_MAX_BYTES = 4 * (PREVIEW_MAX_CHARACTERS + 1);

const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * The start of the content for an approver: decoded as UTF-8 with bad bytes as U+FFFD, then
 * escaped for display (core's `escapeForDisplay`: controls, separators, bidirectional and every
 * default-ignorable code point as `\u{202E}`, backslashes doubled). At most PREVIEW_MAX_CHARACTERS
 * units; neither an escape nor a surrogate pair is ever cut.
 */
export function approvalPreview(bytes: Uint8Array): string {
  return escapeForDisplay(lenient.decode(bytes.subarray(0, PREVIEW_MAX_BYTES)), { maxLength: PREVIEW_MAX_CHARACTERS });
}
