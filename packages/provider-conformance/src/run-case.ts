import { createCaseContext } from './case-context.js';
import type { CaseRequirements, ConformanceCase } from './conformance-case.js';
import { missingFixtures } from './provider-fixtures.js';
import type { FactoryContext, ProviderFactory, ProviderUnderTest } from './provider-fixtures.js';

/** How one case ended: failures carry what was thrown, skips say which requirement was missing. */
export type CaseOutcome =
  | { readonly status: 'passed' }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: unknown };

/** Options of `runCase`. */
export interface RunCaseOptions {
  /** A case still running after this long fails, so a provider that blocks cannot hang the run. Default 5000. */
  readonly timeoutMs?: number;
}

/** The default per-case deadline in milliseconds. */
export const DEFAULT_CASE_TIMEOUT_MS = 5000;

/**
 * Runs one case against a fresh provider from `factory`, outside or inside a vitest test: closes the
 * provider and runs the factory's cleanups (last registered first) whatever happens.
 */
export async function runCase(testCase: ConformanceCase, factory: ProviderFactory, options: RunCaseOptions = {}): Promise<CaseOutcome> {
  const timeoutMs = (options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS) * testCase.timeoutScale;
  const cleanups: Array<() => void | Promise<void>> = [];
  const factoryContext: FactoryContext = { onCleanup: (cleanup) => void cleanups.push(cleanup) };
  let outcome: CaseOutcome = { status: 'passed' };
  let underTest: ProviderUnderTest | undefined;
  try {
    underTest = await factory(factoryContext);
    const missing = missingRequirement(testCase.requires, underTest);
    const gap = missingFixtures(underTest);
    // A declared capability without its fixtures fails the cases that need it: skipping them would
    // let a provider claim links while never being tested on them.
    if (
      gap !== undefined &&
      missing === undefined &&
      (testCase.requires.capabilities ?? []).some((name) => name === 'symlinks' || name === 'hardLinks')
    ) {
      outcome = { status: 'failed', error: new Error(gap) };
    } else if (missing !== undefined) {
      outcome = { status: 'skipped', reason: missing };
    } else {
      await raceDeadline(testCase.run(createCaseContext(underTest)), timeoutMs, testCase.id);
    }
  } catch (error) {
    outcome = { status: 'failed', error };
  }
  try {
    // A case may have closed the provider already; closing twice is not part of the contract.
    await underTest?.provider.close();
  } catch {
    // Ignored: the lifecycle cases test close() itself.
  }
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      if (outcome.status !== 'failed') outcome = { status: 'failed', error };
    }
  }
  return outcome;
}

/** Says which capability or fixture a case lacks, or undefined when it can run. */
export function missingRequirement(requires: CaseRequirements, underTest: ProviderUnderTest): string | undefined {
  for (const capability of requires.capabilities ?? []) {
    if (!underTest.provider.capabilities[capability]) return `the provider does not declare capabilities.${capability}`;
  }
  for (const fixture of requires.fixtures ?? []) {
    const present = {
      fifo: underTest.fixtures.fifo !== undefined,
      modes: underTest.fixtures.modes !== undefined,
      removeWorkspace: underTest.fixtures.removeWorkspace !== undefined,
      hardLinkFromOutside: underTest.fixtures.outside?.hardLinkFromOutside !== undefined,
    }[fixture];
    if (!present) return `the fixtures do not provide ${fixture === 'hardLinkFromOutside' ? 'outside.hardLinkFromOutside' : fixture}`;
  }
  return undefined;
}

async function raceDeadline(run: Promise<void>, timeoutMs: number, id: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${id}: still running after ${timeoutMs} ms (a call blocked or never settled).`)), timeoutMs);
  });
  try {
    await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
