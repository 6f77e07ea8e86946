/**
 * A needle as a LIKE pattern on `encode(bytes, 'escape')`, PostgreSQL's spelling of bytes as text:
 * each byte on its own, NUL and every byte from 0x80 as `\ooo` (three octal digits), a backslash as
 * `\\`, any other byte as itself. Bytes holding the needle spell text holding the needle's
 * spelling, so the pattern keeps every file that holds the needle (docs/provider-postgres.md#search).
 */
export function likeNeedle(needle: Uint8Array): string {
  let spelled = '';
  for (const byte of needle) {
    if (byte === 0 || byte >= 0x80) spelled += `\\${byte.toString(8).padStart(3, '0')}`;
    else if (byte === 0x5c) spelled += '\\\\';
    else spelled += String.fromCharCode(byte);
  }
  // LIKE's own escape is the backslash: the spelling's backslashes, `%` and `_` are taken as themselves.
  return `%${spelled.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Whether the trigram index can narrow a LIKE on this pattern: pg_trgm takes trigrams from runs of
 * letters and digits only, so a pattern without three in a row would scan the whole index.
 */
export function indexNarrows(pattern: string): boolean {
  return /[A-Za-z0-9]{3}/.test(pattern);
}
