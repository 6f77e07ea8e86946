import { missingRequirement, runHarnessCase, type CaseOutcome, type HarnessBinding } from '@libos/conformance-harness';
import type { ObjectStoreV1 } from '@libos/object-memory';
import type { StoreCase, StoreCaseContext, StoreFactory, StoreRequirements, StoreUnderTest } from './store-case.js';
import { createStoreCaseContext } from './store-case-context.js';

/** How one case ended: failures carry what was thrown, skips say which requirement was missing. */
export type StoreCaseOutcome = CaseOutcome;

/** Options of `runStoreCase`. */
export interface RunStoreCaseOptions {
  /** A case still running after this long fails, so a store that hangs cannot hang the run. Default 20000. */
  readonly timeoutMs?: number;
}

/** The default per-case deadline in milliseconds (16 MiB round trips on a loaded machine take a while). */
export const DEFAULT_STORE_CASE_TIMEOUT_MS = 20_000;

/** Says which requirement a case lacks, or undefined when it can run. */
export function missingStoreRequirement(testCase: StoreCase, underTest: StoreUnderTest): string | undefined {
  return missingRequirement(testCase.requires, {
    noun: 'store',
    capabilities: underTest.store.capabilities,
    methods: underTest.store,
    hasFixture: (name) => name === 'openAnother' && underTest.openAnother !== undefined,
  });
}

const binding: HarnessBinding<StoreUnderTest, ObjectStoreV1, StoreCaseContext, StoreRequirements> = {
  subject: (underTest) => underTest.store,
  check(testCase, underTest) {
    const missing = missingStoreRequirement(testCase, underTest);
    return missing === undefined ? undefined : { status: 'skipped', reason: missing };
  },
  context: (underTest, hooks) => createStoreCaseContext({ ...underTest, store: hooks.subject }, hooks.onCleanup),
};

/**
 * Runs one case against a fresh store from `factory`, inside or outside a vitest test: then runs the
 * kit's cleanups (instances it opened, temporary directories), closes the store (unless the case
 * did) and runs the factory's cleanups, last registered first, whatever happens.
 */
export function runStoreCase(testCase: StoreCase, factory: StoreFactory, options: RunStoreCaseOptions = {}): Promise<StoreCaseOutcome> {
  return runHarnessCase(testCase, factory, binding, { timeoutMs: options.timeoutMs ?? DEFAULT_STORE_CASE_TIMEOUT_MS });
}
