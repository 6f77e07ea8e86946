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
 * and paragraph separators, every default-ignorable code point: bidirectional controls, zero-width
 * and tag characters, the BOM) written as an escape, with `\` doubled
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

/** The longest text preview (an edit's diff) shown to an approver, in UTF-16 units. */
export const TEXT_PREVIEW_MAX_CHARACTERS = 4096;

/**
 * A text meant for an approver (an edit's unified diff), escaped exactly like `approvalPreview`
 * (line breaks included, so no content line can pose as a diff line) and cut at
 * TEXT_PREVIEW_MAX_CHARACTERS units, never inside an escape; a cut text ends with `…`.
 */
export function approvalTextPreview(text: string): string {
  let preview = '';
  for (const character of text) {
    const piece = escapeCharacter(character);
    if (preview.length + piece.length > TEXT_PREVIEW_MAX_CHARACTERS - 1) return `${preview}…`;
    preview += piece;
  }
  return preview;
}

function escapeCharacter(character: string): string {
  const known = named[character];
  if (known !== undefined) return known;
  const code = character.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || isInvisibleFormat(code, character)) {
    // Braces beyond the BMP, so `\u{e0041}` cannot be read as `\ue004` followed by `1`.
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return character;
}

// Default-ignorable code points render as nothing (tag characters even spell hidden ASCII); the
// bidirectional controls among them reorder text; line and paragraph separators break it.
const defaultIgnorable = /^\p{Default_Ignorable_Code_Point}$/u;

function isInvisibleFormat(code: number, character: string): boolean {
  return code === 0x2028 || code === 0x2029 || defaultIgnorable.test(character);
}
