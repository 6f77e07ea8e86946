import { describe, it } from 'vitest';
import type { ConformanceCase } from './conformance-case.js';
import { conformanceCases } from './conformance-cases.js';
import type { ProviderFactory } from './provider-fixtures.js';
import { DEFAULT_CASE_TIMEOUT_MS, runCase } from './run-case.js';

/** Options of `describeProvider`; nothing here can drop a case without it showing as skipped. */
export interface DescribeProviderOptions {
  /** Per-case deadline in milliseconds (default 5000); a slow backing store may need more. */
  readonly timeoutMs?: number;
  /**
   * Cases to skip, by id (`<group> > <case>`), each with the reason shown in the report. An id that
   * names no case throws, so a renamed case cannot be skipped by a stale entry.
   */
  readonly skip?: Readonly<Record<string, string>>;
}

/**
 * Registers the conformance suite for one provider: a describe block named `name`, one nested block per
 * group and one test per case, each with a fresh provider from `factory`. Cases whose capability or
 * optional fixture is missing are reported as skipped with the reason.
 */
export function describeProvider(name: string, factory: ProviderFactory, options: DescribeProviderOptions = {}): void {
  const skip = options.skip ?? {};
  const known = new Set(conformanceCases.map((testCase) => testCase.id));
  for (const id of Object.keys(skip)) {
    if (!known.has(id)) throw new Error(`describeProvider: options.skip names no case: ${JSON.stringify(id)}.`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  describe(name, () => {
    for (const [group, cases] of groupCases(conformanceCases)) {
      describe(group, () => {
        for (const testCase of cases) {
          // The vitest timeout sits above the kit's own deadline so the kit's clearer message wins.
          it(
            testCase.name,
            async (context) => {
              const reason = skip[testCase.id];
              if (reason !== undefined) context.skip(`skipped by options.skip: ${reason}`);
              const outcome = await runCase(testCase, factory, { timeoutMs });
              if (outcome.status === 'skipped') context.skip(outcome.reason);
              if (outcome.status === 'failed') throw outcome.error;
            },
            timeoutMs * testCase.timeoutScale + 2000,
          );
        }
      });
    }
  });
}

function groupCases(cases: readonly ConformanceCase[]): Map<string, ConformanceCase[]> {
  const groups = new Map<string, ConformanceCase[]>();
  for (const testCase of cases) {
    const group = groups.get(testCase.group) ?? [];
    group.push(testCase);
    groups.set(testCase.group, group);
  }
  return groups;
}
