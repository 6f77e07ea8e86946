/**
 * The longest code-point prefix of `text` that `fits`, found by binary search (so `fits` runs about
 * log2(length) times), or undefined when not even the empty string fits. `fits` must be monotone:
 * if a prefix fits, every shorter one does. A cut never falls between the two halves of a surrogate
 * pair. `maxUnits` caps the search when the caller knows no longer prefix can fit.
 */
export function longestFittingPrefix(text: string, fits: (prefix: string) => boolean, maxUnits: number = text.length): string | undefined {
  const cut = (end: number): number =>
    end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end)) ? end - 1 : end;
  if (!fits('')) return undefined;
  let low = 0;
  let high = Math.max(0, Math.min(maxUnits, text.length));
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(text.slice(0, cut(middle)))) low = middle;
    else high = middle - 1;
  }
  return text.slice(0, cut(low));
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
