import { describeCases, type DescribeCasesOptions } from '@libos/conformance-harness';
import { describe, it } from 'vitest';
import { conformanceCases } from './conformance-cases.js';
import type { ProviderFactory } from './provider-fixtures.js';
import { DEFAULT_CASE_TIMEOUT_MS, runCase } from './run-case.js';

/** Options of `describeProvider`: `timeoutMs` (default 5000) and `skip`; nothing here can drop a case without it showing as skipped. */
export type DescribeProviderOptions = DescribeCasesOptions;

/**
 * Registers the conformance suite for one provider: a describe block named `name`, one nested block per
 * group and one test per case, each with a fresh provider from `factory`. Cases whose capability or
 * optional fixture is missing are reported as skipped with the reason.
 */
export function describeProvider(name: string, factory: ProviderFactory, options: DescribeProviderOptions = {}): void {
  describeCases(
    name,
    {
      kit: 'describeProvider',
      cases: conformanceCases,
      defaultTimeoutMs: DEFAULT_CASE_TIMEOUT_MS,
      run: (testCase, timeoutMs) => runCase(testCase, factory, { timeoutMs }),
    },
    options,
    { describe, it },
  );
}
