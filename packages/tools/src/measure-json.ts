/** What `measureJson` observed: the UTF-8 length of `JSON.stringify(value)` and whether the value is plain JSON. */
export interface JsonMeasure {
  /** False when something JSON cannot carry exactly was met (undefined, NaN, a class instance, an object met twice, ...). */
  readonly plain: boolean;
  /** Bytes counted so far; once over `limit` counting stops, so this is only known to exceed it. */
  readonly bytes: number;
}

/**
 * Counts the UTF-8 bytes `JSON.stringify(value)` would produce, walking iteratively so that deeply
 * nested input cannot overflow the stack, and stopping as soon as `limit` is passed so an oversized
 * argument costs no more than the bound.
 */
export function measureJson(value: unknown, limit: number): JsonMeasure {
  let bytes = 0;
  let plain = true;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (bytes > limit) return { plain, bytes };
    const item = stack.pop();
    if (item === null || item === true) bytes += 4;
    else if (item === false) bytes += 5;
    else if (typeof item === 'string') bytes += stringBytes(item);
    else if (typeof item === 'number') {
      if (Number.isFinite(item)) bytes += String(item).length;
      else return { plain: false, bytes };
    } else if (typeof item === 'object') {
      if (seen.has(item)) return { plain: false, bytes };
      seen.add(item);
      if (Array.isArray(item)) {
        if (Object.getPrototypeOf(item) !== Array.prototype) return { plain: false, bytes };
        bytes += 2 + Math.max(0, item.length - 1);
        for (let index = 0; index < item.length; index++) {
          if (!(index in item)) return { plain: false, bytes };
          stack.push(item[index]);
        }
      } else {
        const prototype: unknown = Object.getPrototypeOf(item);
        if (prototype !== Object.prototype && prototype !== null) return { plain: false, bytes };
        const keys = Object.keys(item);
        bytes += 2 + Math.max(0, keys.length - 1);
        for (const key of keys) {
          bytes += stringBytes(key) + 1;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    } else {
      // undefined, functions, symbols and bigints have no exact JSON form.
      plain = false;
      return { plain, bytes };
    }
  }
  return { plain, bytes };
}

/** The UTF-8 bytes of a string as JSON text, quotes and escapes included. */
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
