import { describe, it } from 'vitest';
import { storeConformanceCases } from './store-conformance-cases.js';
import type { StoreCase, StoreFactory } from './store-case.js';
import { DEFAULT_STORE_CASE_TIMEOUT_MS, runStoreCase } from './run-store-case.js';

/** Options of `describeObjectStore`; nothing here can drop a case without it showing as skipped. */
export interface DescribeObjectStoreOptions {
  /** Per-case deadline in milliseconds (default 20000). */
  readonly timeoutMs?: number;
  /**
   * Cases to skip, by id (`<group> > <case>`), each with the reason shown in the report. An id that
   * names no case throws, so a renamed case cannot be skipped by a stale entry.
   */
  readonly skip?: Readonly<Record<string, string>>;
}

/**
 * Registers the Object store conformance suite: a describe block named `name`, one nested block per
 * group and one test per case, each with a fresh store from `factory`. Cases whose capability (or
 * `openAnother`) is missing are reported as skipped with the reason.
 */
export function describeObjectStore(name: string, factory: StoreFactory, options: DescribeObjectStoreOptions = {}): void {
  const skip = options.skip ?? {};
  const known = new Set(storeConformanceCases.map((testCase) => testCase.id));
  for (const id of Object.keys(skip)) {
    if (!known.has(id)) throw new Error(`describeObjectStore: options.skip names no case: ${JSON.stringify(id)}.`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_CASE_TIMEOUT_MS;
  describe(name, () => {
    for (const [group, cases] of groupCases(storeConformanceCases)) {
      describe(group, () => {
        for (const testCase of cases) {
          it(
            testCase.name,
            async (context) => {
              const reason = skip[testCase.id];
              if (reason !== undefined) context.skip(`skipped by options.skip: ${reason}`);
              const outcome = await runStoreCase(testCase, factory, { timeoutMs });
              if (outcome.status === 'skipped') context.skip(outcome.reason);
              if (outcome.status === 'failed') throw outcome.error;
            },
            timeoutMs + 5000,
          );
        }
      });
    }
  });
}

function groupCases(cases: readonly StoreCase[]): Map<string, StoreCase[]> {
  const groups = new Map<string, StoreCase[]>();
  for (const testCase of cases) {
    const group = groups.get(testCase.group) ?? [];
    group.push(testCase);
    groups.set(testCase.group, group);
  }
  return groups;
}
