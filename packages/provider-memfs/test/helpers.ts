import { LibosError, ROOT_PATH, resolveWorkspacePath, type ErrorCode, type WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { createMemfsTestbed } from '../src/testing.js';

/** A canonical path from test input, through core's parser. */
export function p(input: string): WorkspacePath {
  return resolveWorkspacePath(ROOT_PATH, input);
}

/** Awaits a call that must fail with `code`, and returns the error for more checks. */
export async function failsWith(call: Promise<unknown>, code: ErrorCode): Promise<LibosError> {
  const error: unknown = await call.then(
    () => new Error(`expected ${code}, but the call succeeded`),
    (thrown: unknown) => thrown,
  );
  if (!LibosError.is(error)) throw error;
  expect(error.code, error.message).toBe(code);
  return error;
}

export const text = (bytes: Uint8Array | null): string | null => (bytes === null ? null : new TextDecoder().decode(bytes));
export const bytesOf = (value: string): Uint8Array => new TextEncoder().encode(value);

/** A fresh provider with fixtures; the volume is exposed for the checks that need it. */
export function testbed() {
  return createMemfsTestbed();
}
