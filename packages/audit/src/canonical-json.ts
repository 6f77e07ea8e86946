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

// One walk's state, passed down instead of closed over: every call hashes its arguments through
// here, so the walk allocates no closures.
interface Walk {
  text: string;
  readonly maxLength: number;
  readonly strict: boolean;
}

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by their UTF-16 code units, no
 * whitespace, numbers as ECMAScript prints them, strings escaped as JSON.stringify escapes them.
 * Throws a TypeError for what JSON cannot hold (non-finite numbers, bigint, functions, lone
 * surrogates, cycles) and a RangeError past `maxLength`.
 */
export function canonicalJson(value: unknown, options?: CanonicalJsonOptions): string {
  const walk: Walk = {
    text: '',
    maxLength: options?.maxLength ?? Number.POSITIVE_INFINITY,
    strict: options?.loneSurrogates !== 'escape',
  };
  try {
    writeValue(walk, value, 0);
  } catch (error) {
    // The engine's stack can end before MAX_DEPTH (a frame's size depends on how far the code is
    // optimized): the same verdict as reaching it. A RangeError of ours is the length bound.
    if (error instanceof RangeError && !LENGTH_ERRORS.has(error))
      throw new TypeError('The value is nested too deeply or holds a cycle (or is too long to be a string).', { cause: error });
    throw error;
  }
  return walk.text;
}

const LENGTH_ERRORS = new WeakSet<RangeError>();

function lengthError(maxLength: number): RangeError {
  const error = new RangeError(`The canonical JSON is longer than ${maxLength} characters.`);
  LENGTH_ERRORS.add(error);
  return error;
}

// One frame per level of nesting (arrays and objects inline), so a value goes as deep as the stack allows.
function writeValue(walk: Walk, item: unknown, depth: number): void {
  switch (typeof item) {
    case 'string':
      walk.text += canonicalString(item, walk.strict);
      break;
    case 'number':
      if (!Number.isFinite(item)) throw new TypeError('JSON has no NaN or Infinity.');
      // ECMAScript's Number-to-String is exactly the serialization RFC 8785 requires (-0 prints as 0).
      walk.text += String(item);
      break;
    case 'boolean':
      walk.text += item ? 'true' : 'false';
      break;
    case 'object': {
      if (item === null) {
        walk.text += 'null';
        break;
      }
      if (depth > MAX_DEPTH) throw new TypeError('The value is nested too deeply, or holds a cycle.');
      if (Array.isArray(item)) {
        walk.text += '[';
        for (let index = 0; index < item.length; index += 1) {
          if (index > 0) walk.text += ',';
          const element: unknown = item[index];
          writeValue(walk, element === undefined ? null : element, depth + 1);
        }
        walk.text += ']';
        break;
      }
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record);
      // Default sort compares UTF-16 code units, which is the order RFC 8785 names.
      if (keys.length > 1) keys.sort();
      let separator = '{';
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        walk.text += `${separator}${canonicalString(key, walk.strict)}:`;
        separator = ',';
        writeValue(walk, member, depth + 1);
      }
      walk.text += separator === '{' ? '{}' : '}';
      break;
    }
    default:
      throw new TypeError(`JSON cannot hold a ${typeof item}.`);
  }
  if (walk.text.length > walk.maxLength) throw lengthError(walk.maxLength);
}

// What JSON.stringify would escape (a control character, a quote, a backslash) or might (a surrogate).
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;
// Past this, JSON.stringify's own scan beats a regex scan followed by a copy.
const SHORT = 256;

/** A string as RFC 8785 writes it; a lone surrogate throws unless `strict` is false (then it is escaped). */
export function canonicalString(text: string, strict = true): string {
  // Names, paths and hashes are short and plain: quoting them is all the escaping they need.
  if (text.length <= SHORT && !NEEDS_ESCAPE.test(text)) return `"${text}"`;
  if (strict && !text.isWellFormed()) throw new TypeError('The string holds a lone surrogate.');
  return JSON.stringify(text);
}
