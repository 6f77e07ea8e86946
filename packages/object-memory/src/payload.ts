import { LibosError } from '@libos/core';
import type { JsonValue } from '@libos/core';

/** The payload gate's measure: UTF-8 bytes of the payload's compact JSON. */
export function payloadByteLength(payload: JsonValue): number {
  return Buffer.byteLength(JSON.stringify(payload), 'utf8');
}

/**
 * Copies a plain JSON value and freezes the copy all the way down, so no caller keeps a handle that
 * could change a stored Object. Strings are immutable, so a large text costs nothing to copy.
 * Throws `invalid_arguments` for anything that is not plain JSON (cycles included).
 */
export function freezeJsonCopy(value: unknown): JsonValue {
  try {
    return copy(value, new Set(), '$');
  } catch (error) {
    // Nesting deep enough to exhaust the stack: refused like any other value that cannot be stored.
    if (error instanceof RangeError) {
      throw new LibosError('invalid_arguments', 'The payload is nested too deeply to be stored.', { details: { at: '$' } });
    }
    throw error;
  }
}

function copy(value: unknown, ancestors: Set<object>, at: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw notJson(at, 'a non-finite number');
  }
  if (typeof value !== 'object') throw notJson(at, `a ${typeof value}`);
  if (ancestors.has(value)) throw notJson(at, 'a cycle');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: JsonValue[] = [];
      for (let index = 0; index < value.length; index++) {
        // `map` would skip a hole and keep it, which JSON (and so a checkpoint) turns into null.
        if (!(index in value)) throw notJson(`${at}[${index}]`, 'a hole');
        items.push(copy(value[index], ancestors, `${at}[${index}]`));
      }
      return Object.freeze(items);
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) throw notJson(at, 'an object that is not plain');
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      // Defined, not assigned: assigning a "__proto__" key (JSON.parse makes one) would set the prototype.
      Object.defineProperty(result, key, { value: copy(item, ancestors, `${at}.${key}`), enumerable: true, writable: true, configurable: true });
    }
    return Object.freeze(result);
  } finally {
    ancestors.delete(value);
  }
}

function notJson(at: string, what: string): LibosError {
  return new LibosError('invalid_arguments', `The payload is not plain JSON: ${at} is ${what}.`, {
    details: { at },
  });
}
