import { LibosError } from '@libos/core';
import type { JsonValue } from './memory-object.js';

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
  return copy(value, new Set(), '$');
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
      return Object.freeze(value.map((item, index) => copy(item, ancestors, `${at}[${index}]`)));
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) throw notJson(at, 'an object that is not plain');
    const result: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      result[key] = copy(item, ancestors, `${at}.${key}`);
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
