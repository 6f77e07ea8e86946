import type { StoreCase, StoreFactory, StoreFactoryContext, StoreUnderTest } from './store-case.js';
import { createStoreCaseContext } from './store-case-context.js';

/** How one case ended: failures carry what was thrown, skips say which requirement was missing. */
export type StoreCaseOutcome =
  | { readonly status: 'passed' }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: unknown };

/** Options of `runStoreCase`. */
export interface RunStoreCaseOptions {
  /** A case still running after this long fails, so a store that hangs cannot hang the run. Default 20000. */
  readonly timeoutMs?: number;
}

/** The default per-case deadline in milliseconds (16 MiB round trips on a loaded machine take a while). */
export const DEFAULT_STORE_CASE_TIMEOUT_MS = 20_000;

/**
 * Runs one case against a fresh store from `factory`, inside or outside a vitest test: closes the
 * store, then runs the kit's and the factory's cleanups (last registered first), whatever happens.
 */
export async function runStoreCase(testCase: StoreCase, factory: StoreFactory, options: RunStoreCaseOptions = {}): Promise<StoreCaseOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_CASE_TIMEOUT_MS;
  const factoryCleanups: Array<() => void | Promise<void>> = [];
  const kitCleanups: Array<() => Promise<void>> = [];
  const factoryContext: StoreFactoryContext = { onCleanup: (cleanup) => void factoryCleanups.push(cleanup) };
  let outcome: StoreCaseOutcome = { status: 'passed' };
  let underTest: StoreUnderTest | undefined;
  try {
    underTest = await factory(factoryContext);
    const missing = missingRequirement(testCase, underTest);
    if (missing !== undefined) outcome = { status: 'skipped', reason: missing };
    else await raceDeadline(testCase.run(createStoreCaseContext(underTest, kitCleanups)), timeoutMs, testCase.id);
  } catch (error) {
    outcome = { status: 'failed', error };
  }
  const cleanups: Array<() => void | Promise<void>> = [...kitCleanups, () => underTest?.store.close(), ...factoryCleanups];
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      if (outcome.status !== 'failed') outcome = { status: 'failed', error };
    }
  }
  return outcome;
}

/** Says which requirement a case lacks, or undefined when it can run. */
export function missingRequirement(testCase: StoreCase, underTest: StoreUnderTest): string | undefined {
  const { capabilities } = underTest.store;
  for (const requirement of testCase.requires) {
    if (requirement === 'another' && underTest.openAnother === undefined) return 'the factory does not provide openAnother';
    if (requirement === 'shared' && !capabilities.shared) return 'the store does not declare capabilities.shared';
    if (requirement === 'durable' && !capabilities.durable) return 'the store does not declare capabilities.durable';
    if (requirement === 'leaseMs' && capabilities.leaseMs === undefined) return 'the store does not declare capabilities.leaseMs';
  }
  return undefined;
}

async function raceDeadline(run: Promise<void>, timeoutMs: number, id: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${id}: still running after ${timeoutMs} ms (a call never settled).`)), timeoutMs);
  });
  try {
    await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
