/** The longest preview shown to an approver, in UTF-16 units, so in characters however counted. */
export const PREVIEW_MAX_CHARACTERS = 256;

// Enough bytes for PREVIEW_MAX_CHARACTERS whole characters of four bytes each, plus one cut one,
// so a large write never decodes more than this.
const PREVIEW_MAX_BYTES = 4 * (PREVIEW_MAX_CHARACTERS + 1);

const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

const named: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/**
 * The start of the content for an approver: decoded as UTF-8 with bad bytes as U+FFFD, and every
 * character that could hide or reorder text on the approver's screen (C0 and C1 controls, DEL, line
 * and paragraph separators, bidirectional controls, the BOM) written as an escape, with `\` doubled
 * so escapes stay unambiguous. At most PREVIEW_MAX_CHARACTERS units; neither an escape nor a
 * surrogate pair is ever cut.
 */
export function approvalPreview(bytes: Uint8Array): string {
  const text = lenient.decode(bytes.subarray(0, PREVIEW_MAX_BYTES));
  let preview = '';
  for (const character of text) {
    const piece = escapeCharacter(character);
    if (preview.length + piece.length > PREVIEW_MAX_CHARACTERS) break;
    preview += piece;
  }
  return preview;
}

function escapeCharacter(character: string): string {
  const known = named[character];
  if (known !== undefined) return known;
  const code = character.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || isInvisibleFormat(code)) {
    return `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return character;
}

function isInvisibleFormat(code: number): boolean {
  return (
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}
