import { LibosError, type ErrorCode } from '@libos/core';
import { describeThrown, describeValue } from './describe-value.js';

/** The effect an expected error must carry; `any` accepts both. */
export type ExpectedEffect = 'none' | 'unknown' | 'any';

/**
 * Calls `action` and asserts it rejects (or throws) a LibosError of one of `codes` with effect
 * `effect`, then runs the kit's own `inspect` (leaks, the details table), which returns a reason
 * to fail or undefined. Resolves to the error; every mismatch is an Error saying what came instead.
 */
export async function expectLibosError(
  action: () => unknown,
  codes: ErrorCode | readonly ErrorCode[],
  effect: ExpectedEffect = 'none',
  inspect: (error: LibosError) => string | undefined = () => undefined,
): Promise<LibosError> {
  const expected: readonly ErrorCode[] = typeof codes === 'string' ? [codes] : codes;
  const wanted = expected.join(' or ');
  let result: unknown;
  try {
    result = await action();
  } catch (error) {
    if (!LibosError.is(error)) throw new Error(`Expected a LibosError ${wanted}, got ${describeThrown(error)}.`);
    if (!expected.includes(error.code)) throw new Error(`Expected ${wanted}, got ${error.code} (${error.message}).`);
    if (effect !== 'any' && error.effect !== effect) throw new Error(`Expected ${error.code} with effect ${effect}, got ${error.effect}.`);
    const problem = inspect(error);
    if (problem !== undefined) throw new Error(problem);
    return error;
  }
  throw new Error(`Expected ${wanted}, but the call succeeded with ${describeValue(result)}.`);
}
