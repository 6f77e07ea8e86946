// Deeper than any argument a pipeline accepts; a cycle reaches it too, and fails there.
const MAX_DEPTH = 4096;

/** Options of `canonicalJson`. */
export interface CanonicalJsonOptions {
  /** Fail with a RangeError once the text would pass this many characters (bounds the work on a hostile value). */
  readonly maxLength?: number;
  /**
   * RFC 8785 (I-JSON) has no lone surrogates, so by default they throw. `'escape'` writes them as
   * `\udXXX` instead, as JSON.stringify does: a record must be written whatever a caller named.
   */
  readonly loneSurrogates?: 'throw' | 'escape';
}

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by their UTF-16 code units, no
 * whitespace, numbers as ECMAScript prints them, strings escaped as JSON.stringify escapes them.
 * Throws a TypeError for what JSON cannot hold (non-finite numbers, bigint, functions, lone
 * surrogates, cycles) and a RangeError past `maxLength`.
 */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  const strict = options.loneSurrogates !== 'escape';
  let text = '';
  const push = (part: string) => {
    text += part;
    if (text.length > maxLength) throw new RangeError(`The canonical JSON is longer than ${maxLength} characters.`);
  };
  const write = (item: unknown, depth: number): void => {
    if (item === null) {
      push('null');
      return;
    }
    if (typeof item === 'string') {
      push(canonicalString(item, strict));
      return;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw new TypeError('JSON has no NaN or Infinity.');
      // ECMAScript's Number-to-String is exactly the serialization RFC 8785 requires (-0 prints as 0).
      push(String(item));
      return;
    }
    if (typeof item === 'boolean') {
      push(item ? 'true' : 'false');
      return;
    }
    if (typeof item !== 'object') throw new TypeError(`JSON cannot hold a ${typeof item}.`);
    if (depth > MAX_DEPTH) throw new TypeError('The value is nested too deeply, or holds a cycle.');
    if (Array.isArray(item)) {
      push('[');
      for (let index = 0; index < item.length; index += 1) {
        if (index > 0) push(',');
        const element: unknown = item[index];
        write(element === undefined ? null : element, depth + 1);
      }
      push(']');
      return;
    }
    const record = item as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is the order RFC 8785 names.
    const keys = Object.keys(record).sort();
    push('{');
    let first = true;
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      push(first ? canonicalString(key, strict) : `,${canonicalString(key, strict)}`);
      push(':');
      first = false;
      write(member, depth + 1);
    }
    push('}');
  };
  write(value, 0);
  return text;
}

/** A string as RFC 8785 writes it; a lone surrogate throws unless `strict` is false (then it is escaped). */
export function canonicalString(text: string, strict = true): string {
  if (strict && !text.isWellFormed()) throw new TypeError('The string holds a lone surrogate.');
  return JSON.stringify(text);
}
