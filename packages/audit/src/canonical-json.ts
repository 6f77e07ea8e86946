/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by their UTF-16 code units, no
 * whitespace, numbers as ECMAScript prints them, strings escaped as JSON.stringify escapes them.
 * Throws a TypeError for what JSON cannot hold (non-finite numbers, bigint, functions, lone
 * surrogates, cycles) and a RangeError once the text would pass `maxLength` characters, so a
 * caller can bound the work spent on a hostile value.
 */
export function canonicalJson(value: unknown, maxLength = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  let length = 0;
  const ancestors = new Set<object>();
  const push = (text: string) => {
    length += text.length;
    if (length > maxLength) throw new RangeError(`The canonical JSON is longer than ${maxLength} characters.`);
    parts.push(text);
  };
  const write = (item: unknown): void => {
    if (item === null) {
      push('null');
      return;
    }
    if (typeof item === 'boolean') {
      push(item ? 'true' : 'false');
      return;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw new TypeError('JSON has no NaN or Infinity.');
      // ECMAScript's Number-to-String is exactly the serialization RFC 8785 requires (-0 prints as 0).
      push(String(item));
      return;
    }
    if (typeof item === 'string') {
      push(canonicalString(item));
      return;
    }
    if (typeof item !== 'object') throw new TypeError(`JSON cannot hold a ${typeof item}.`);
    const object = item as object;
    if (ancestors.has(object)) throw new TypeError('The value holds a cycle.');
    ancestors.add(object);
    if (Array.isArray(object)) {
      push('[');
      object.forEach((element, index) => {
        if (index > 0) push(',');
        write(element === undefined ? null : element);
      });
      push(']');
    } else {
      const record = object as Record<string, unknown>;
      // Default sort compares UTF-16 code units, which is the order RFC 8785 names.
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      push('{');
      keys.forEach((key, index) => {
        if (index > 0) push(',');
        push(canonicalString(key));
        push(':');
        write(record[key]);
      });
      push('}');
    }
    ancestors.delete(object);
  };
  write(value);
  return parts.join('');
}

function canonicalString(text: string): string {
  // I-JSON (which RFC 8785 builds on) has no lone surrogates: they are not text.
  if (!text.isWellFormed()) throw new TypeError('The string holds a lone surrogate.');
  return JSON.stringify(text);
}
