import { LibosError } from '@libos/core';
import type { Effect, ErrorCode } from '@libos/core';
import { expect } from 'vitest';

/** Awaits a call that must fail with `code` (and `effect`), and returns the error. */
export async function expectFailure(call: Promise<unknown> | (() => unknown), code: ErrorCode, effect: Effect = 'none'): Promise<LibosError> {
  let outcome: unknown;
  try {
    outcome = await (typeof call === 'function' ? call() : call);
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    expect({ code: error.code, effect: error.effect, message: error.message }).toMatchObject({ code, effect });
    return error;
  }
  throw new Error(`Expected ${code}, but the call succeeded with ${JSON.stringify(outcome)}.`);
}
