import { Buffer } from 'node:buffer';

/** What `measureJson` observed about a value meant to be JSON. */
export interface JsonMeasure {
  /** False when something JSON cannot carry exactly was met (undefined, NaN, a class instance, an object met twice, ...). */
  readonly plain: boolean;
  /** UTF-8 bytes of `JSON.stringify(value)`; when that cannot run, a count that may stop once past the limit. */
  readonly bytes: number;
  /** The JSON text, when `JSON.stringify` could produce it. */
  readonly json?: string;
}

/**
 * Measures a value's JSON size and checks that it is plain JSON. The native serializer does the
 * counting (a JavaScript loop over megabytes of text is an order of magnitude slower); a value it
 * refuses (a cycle, a bigint, nesting too deep for its recursion) is walked iteratively instead, so
 * nothing can overflow the stack and counting stops once `limit` is passed.
 */
export function measureJson(value: unknown, limit: number): JsonMeasure {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return safely(() => walk(value, limit, true));
  }
  if (json === undefined) return { plain: false, bytes: 0 };
  const { plain } = safely(() => walk(value, Number.POSITIVE_INFINITY, false));
  return { plain, bytes: Buffer.byteLength(json, 'utf8'), json };
}

// A getter or proxy that throws makes the value unusable as arguments, not a host failure.
function safely(measure: () => JsonMeasure): JsonMeasure {
  try {
    return measure();
  } catch {
    return { plain: false, bytes: 0 };
  }
}

function walk(value: unknown, limit: number, countBytes: boolean): JsonMeasure {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  const notPlain = (): JsonMeasure => ({ plain: false, bytes });
  while (stack.length > 0) {
    if (bytes > limit) return { plain: true, bytes };
    const item = stack.pop();
    if (item === null || item === true) bytes += 4;
    else if (item === false) bytes += 5;
    else if (typeof item === 'string') bytes += countBytes ? stringBytes(item) : 0;
    else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return notPlain();
      bytes += String(item).length;
    } else if (typeof item === 'object') {
      if (seen.has(item)) return notPlain();
      seen.add(item);
      if (Array.isArray(item)) {
        if (Object.getPrototypeOf(item) !== Array.prototype) return notPlain();
        bytes += 2 + Math.max(0, item.length - 1);
        for (let index = 0; index < item.length; index++) {
          if (!(index in item)) return notPlain();
          stack.push(item[index]);
        }
      } else {
        const prototype: unknown = Object.getPrototypeOf(item);
        if (prototype !== Object.prototype && prototype !== null) return notPlain();
        const keys = Object.keys(item);
        bytes += 2 + Math.max(0, keys.length - 1);
        for (const key of keys) {
          bytes += (countBytes ? stringBytes(key) : 0) + 1;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    } else return notPlain(); // undefined, functions, symbols and bigints have no exact JSON form
  }
  return { plain: true, bytes };
}

/** The UTF-8 bytes of a string as JSON text, quotes and escapes included, lone surrogates as \uDXXX. */
function stringBytes(text: string): number {
  let bytes = 2;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0x20 && unit < 0x7f) bytes += unit === 0x22 || unit === 0x5c ? 2 : 1;
    else if (unit < 0x20) bytes += unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13 ? 2 : 6;
    else if (unit < 0x800) bytes += unit === 0x7f ? 1 : 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}
