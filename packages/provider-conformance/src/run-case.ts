import { missingRequirement, runHarnessCase, type CaseOutcome, type HarnessBinding } from '@libos/conformance-harness';
import type { FileSystemProviderV1 } from '@libos/core';
import { createCaseContext } from './case-context.js';
import type { CaseContext, CaseRequirements, ConformanceCase } from './conformance-case.js';
import { missingFixtures } from './provider-fixtures.js';
import type { ProviderFactory, ProviderUnderTest } from './provider-fixtures.js';

export type { CaseOutcome } from '@libos/conformance-harness';

/** Options of `runCase`. */
export interface RunCaseOptions {
  /** A case still running after this long fails, so a provider that blocks cannot hang the run. Default 5000. */
  readonly timeoutMs?: number;
}

/** The default per-case deadline in milliseconds. */
export const DEFAULT_CASE_TIMEOUT_MS = 5000;

const fixturePresent: Readonly<Record<string, (underTest: ProviderUnderTest) => boolean>> = {
  fifo: (underTest) => underTest.fixtures.fifo !== undefined,
  modes: (underTest) => underTest.fixtures.modes !== undefined,
  removeWorkspace: (underTest) => underTest.fixtures.removeWorkspace !== undefined,
  hardLinkFromOutside: (underTest) => underTest.fixtures.outside?.hardLinkFromOutside !== undefined,
};

const binding: HarnessBinding<ProviderUnderTest, FileSystemProviderV1, CaseContext, CaseRequirements> = {
  subject: (underTest) => underTest.provider,
  check(testCase, underTest) {
    const missing = missingRequirement(testCase.requires, {
      noun: 'provider',
      capabilities: underTest.provider.capabilities,
      methods: underTest.provider,
      hasFixture: (name) => fixturePresent[name]?.(underTest) === true,
      fixtureLabel: (name) => (name === 'hardLinkFromOutside' ? 'outside.hardLinkFromOutside' : name),
    });
    const gap = missingFixtures(underTest);
    // A declared capability without its fixtures fails the cases that need it: skipping them would
    // let a provider claim links while never being tested on them.
    const needsLinks = (testCase.requires.capabilities ?? []).some((name) => name === 'symlinks' || name === 'hardLinks');
    if (gap !== undefined && missing === undefined && needsLinks) return { status: 'failed', error: new Error(gap) };
    return missing === undefined ? undefined : { status: 'skipped', reason: missing };
  },
  context: (underTest, hooks) => createCaseContext({ ...underTest, provider: hooks.subject }),
};

/**
 * Runs one case against a fresh provider from `factory`, outside or inside a vitest test, then
 * closes the provider (unless the case did) and runs the factory's cleanups, last registered first.
 */
export function runCase(testCase: ConformanceCase, factory: ProviderFactory, options: RunCaseOptions = {}): Promise<CaseOutcome> {
  return runHarnessCase(testCase, factory, binding, { timeoutMs: options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS });
}
