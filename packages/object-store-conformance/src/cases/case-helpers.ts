import type { MemoryObject } from '@libos/object-memory';
import { expect } from 'vitest';

/** Asserts `actual` is `expected` field for field, with the payload's JSON text identical (key order included). */
export function expectSameObject(actual: MemoryObject | undefined, expected: MemoryObject): void {
  expect(actual, `Object ${expected.namespace}/${expected.name}`).toBeDefined();
  const got = actual!;
  expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
  for (const field of ['oid', 'namespace', 'name', 'type', 'label', 'created_at', 'created_by'] as const) {
    expect(got[field], field).toBe(expected[field]);
  }
  // toBe on the text, not toEqual on values: key order and every code unit must survive.
  const text = JSON.stringify(got.payload);
  const wanted = JSON.stringify(expected.payload);
  if (text !== wanted) {
    let at = 0;
    while (at < text.length && text.charCodeAt(at) === wanted.charCodeAt(at)) at += 1;
    throw new Error(
      `The payload of ${expected.name} came back different (${text.length} vs ${wanted.length} characters, first difference at UTF-16 unit ${at}).`,
    );
  }
}

/** How many of the settled promises fulfilled, and the failure codes of the others. */
export function tally(outcomes: readonly PromiseSettledResult<unknown>[]): { fulfilled: number; codes: string[] } {
  const codes = outcomes
    .filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected')
    .map((outcome) => String((outcome.reason as { code?: unknown } | null)?.code ?? outcome.reason));
  return { fulfilled: outcomes.length - codes.length, codes };
}
