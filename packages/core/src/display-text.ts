/** How `escapeForDisplay` writes text. */
export interface DisplayOptions {
  /**
   * Keep line feeds and tabs as they are and backslashes single: for showing a file's content as
   * lines. Everything else that could hide or reorder text is still escaped.
   */
  readonly multiline?: boolean;
  /** Also escape `"`, for text shown between double quotes (a path in a sentence). */
  readonly quotes?: boolean;
  /** At most this many UTF-16 units; an escape or a surrogate pair is never cut. */
  readonly maxLength?: number;
}

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\', '"': '\\"' };

// Controls (C0, DEL, C1 with NEL), format characters (bidirectional embeddings, overrides and
// isolates, zero-width joiners, the BOM), line and paragraph separators, every default-ignorable
// code point (tag characters, variation selectors, Hangul fillers: they render as nothing), lone
// surrogates and unassigned code points (which a newer font may draw as anything).
const HIDDEN = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}\p{Cn}]$/u;

/**
 * Text as it may be shown to a person (an approval prompt, a listing, a message) without any name
 * or content making one text look like another (docs/rules.md, Authority): every character that could
 * hide, break or reorder text is written as `\u{202E}` (uppercase hex, at least four digits), line
 * breaks and tabs as `\n`, `\r`, `\t`, and `\` is doubled so every escape is unambiguous. Printable
 * text, accents and emoji are left as they are.
 */
export function escapeForDisplay(text: string, options: DisplayOptions = {}): string {
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  let shown = '';
  for (const character of text) {
    const piece = escapeCharacter(character, options);
    if (shown.length + piece.length > maxLength) break;
    shown += piece;
  }
  return shown;
}

function escapeCharacter(character: string, options: DisplayOptions): string {
  if (options.multiline === true && (character === '\n' || character === '\t' || character === '\\')) return character;
  if (character === '"') return options.quotes === true ? NAMED['"']! : character;
  const named = NAMED[character];
  if (named !== undefined) return named;
  if (!HIDDEN.test(character)) return character;
  return `\\u{${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}}`;
}
