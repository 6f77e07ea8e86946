import { describeCases, type DescribeCasesOptions } from '@libos/conformance-harness';
import { describe, it } from 'vitest';
import { DEFAULT_STORE_CASE_TIMEOUT_MS, runStoreCase } from './run-store-case.js';
import type { StoreFactory } from './store-case.js';
import { storeConformanceCases } from './store-conformance-cases.js';

/** Options of `describeObjectStore`: `timeoutMs` (default 20000) and `skip`; nothing here can drop a case without it showing as skipped. */
export type DescribeObjectStoreOptions = DescribeCasesOptions;

/**
 * Registers the Object store conformance suite: a describe block named `name`, one nested block per
 * group and one test per case, each with a fresh store from `factory`. Cases whose capability (or
 * `openAnother`) is missing are reported as skipped with the reason.
 */
export function describeObjectStore(name: string, factory: StoreFactory, options: DescribeObjectStoreOptions = {}): void {
  describeCases(
    name,
    {
      kit: 'describeObjectStore',
      cases: storeConformanceCases,
      defaultTimeoutMs: DEFAULT_STORE_CASE_TIMEOUT_MS,
      run: (testCase, timeoutMs) => runStoreCase(testCase, factory, { timeoutMs }),
    },
    options,
    { describe, it },
  );
}
