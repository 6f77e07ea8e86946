import { Buffer } from 'node:buffer';
import { types } from 'node:util';

/** What `measureJson` observed about a value meant to be JSON. */
export interface JsonMeasure {
  /** False when something JSON cannot carry exactly was met (undefined, NaN, a class instance, a getter, a proxy, an object met twice, ...). */
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
      // A proxy or an accessor can answer the parser differently from the measure (or throw later),
      // and a hidden or symbol key (a non-enumerable toJSON) can make the measured JSON lie.
      if (seen.has(item) || types.isProxy(item)) return notPlain();
      seen.add(item);
      if (Array.isArray(item)) {
        // No tool takes an array, so the parser never reads an element: only a hidden toJSON could
        // make the measure lie, and checking each element's descriptor would cost ten times more.
        if (Object.getPrototypeOf(item) !== Array.prototype || Object.hasOwn(item, 'toJSON')) return notPlain();
        bytes += 2 + Math.max(0, item.length - 1);
        for (let index = 0; index < item.length; index++) {
          if (!(index in item)) return notPlain();
          stack.push(item[index]);
        }
      } else {
        const prototype: unknown = Object.getPrototypeOf(item);
        if (prototype !== Object.prototype && prototype !== null) return notPlain();
        const keys = Reflect.ownKeys(item);
        const values: unknown[] = [];
        for (const key of keys) {
          const value = typeof key === 'symbol' ? notData : dataValue(item, key);
          if (value === notData) return notPlain();
          values.push(value);
        }
        bytes += 2 + Math.max(0, keys.length - 1);
        for (const key of keys) bytes += (countBytes ? stringBytes(key as string) : 0) + 1;
        for (const value of values) stack.push(value);
      }
    } else return notPlain(); // undefined, functions, symbols and bigints have no exact JSON form
  }
  return { plain: true, bytes };
}

const notData = Symbol('not data');

/** The value of an own enumerable data property, read without running any code; else `notData`. */
function dataValue(item: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(item, key);
  if (descriptor === undefined || descriptor.enumerable !== true || !('value' in descriptor)) return notData;
  return descriptor.value as unknown;
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
