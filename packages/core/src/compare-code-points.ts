/**
 * Compares two strings by Unicode code point. JavaScript's `<` compares UTF-16 code units, which
 * put an astral character (a surrogate pair, 0xD800-0xDFFF) before U+E000-U+FFFF.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) return codePointRank(a) - codePointRank(b);
  }
  return left.length - right.length;
}

// Moves surrogates above the rest of the BMP, which turns code-unit order into code-point order.
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}
