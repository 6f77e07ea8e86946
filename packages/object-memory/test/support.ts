import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LibosError } from '@libos/core';
import { afterEach, beforeEach } from 'vitest';

/** The creator every test Object names. */
export const pid = 'pid_0123456789abcdef';

/** A fresh host directory per test, removed after it; read `.path` inside a test. */
export function useScratchDirectory(prefix: string): { readonly path: string } {
  const scratch = { path: '' };
  beforeEach(() => {
    scratch.path = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    rmSync(scratch.path, { recursive: true, force: true });
  });
  return scratch;
}

/** Runs an action that must fail with a LibosError (thrown or rejected) and returns it. */
export async function failureOf(action: () => unknown): Promise<LibosError> {
  try {
    await action();
  } catch (error) {
    if (LibosError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a LibosError');
}
