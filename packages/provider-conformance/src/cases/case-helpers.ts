import { expect } from 'vitest';
import type { CaseContext } from '../conformance-case.js';

const isoUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3,9}Z$/;

/** Asserts an ISO 8601 UTC time with millisecond or finer precision. */
export function expectIsoTime(value: string | null): void {
  expect(value, 'modifiedAt').toMatch(isoUtc);
  expect(Number.isNaN(Date.parse(value ?? ''))).toBe(false);
}

/** Text of some bytes, for readable failures. */
export function text(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** Snapshots the store, runs `action`, and fails if the store changed. */
export async function expectUnchanged<T>(context: CaseContext, extra: readonly string[], action: () => Promise<T>): Promise<T> {
  const before = await context.snapshot(extra);
  const result = await action();
  expect(await context.snapshot(extra)).toBe(before);
  return result;
}

/** Lets timers and I/O callbacks run, so interleavings at await points actually happen. */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Names sorted by Unicode code point, the order listings promise. */
export function codePointSort(names: readonly string[]): string[] {
  return [...names].sort((left, right) => {
    const a = [...left].map((character) => character.codePointAt(0) ?? 0);
    const b = [...right].map((character) => character.codePointAt(0) ?? 0);
    for (let index = 0; index < Math.min(a.length, b.length); index++) {
      if (a[index] !== b[index]) return (a[index] ?? 0) - (b[index] ?? 0);
    }
    return a.length - b.length;
  });
}
