import type { HarnessCase } from './harness-case.js';
import type { CaseOutcome } from './run-harness-case.js';

/**
 * The two test-runner functions the harness registers cases with; a kit passes vitest's own
 * `describe` and `it`, so the harness itself depends on no runner.
 */
export interface SuiteApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: (context: { skip(note?: string): void }) => Promise<void>, timeout?: number): void;
}

/** Options every kit's `describe...` function takes; nothing here can drop a case without it showing as skipped. */
export interface DescribeCasesOptions {
  /** Per-case deadline in milliseconds (each kit has its own default). */
  readonly timeoutMs?: number;
  /**
   * Cases to skip, by id (`<group> > <case>`), each with the reason shown in the report. An id that
   * names no case throws, so a renamed case cannot be skipped by a stale entry.
   */
  readonly skip?: Readonly<Record<string, string>>;
}

/** What one kit hands `describeCases`. */
export interface CaseSuite<Case extends HarnessCase<never>> {
  /** The kit's function name, for its refusals (`describeProvider`). */
  readonly kit: string;
  readonly cases: readonly Case[];
  readonly defaultTimeoutMs: number;
  /** Runs one case with the run's deadline. */
  run(testCase: Case, timeoutMs: number): Promise<CaseOutcome>;
}

// The runner's own timeout sits above the harness deadline, so the harness's clearer message wins.
const RUNNER_MARGIN_MS = 5000;

/**
 * Registers a suite: a describe block named `name`, one nested block per group and one test per
 * case, each run by `suite.run`. Skips (by option or by a missing requirement) are reported with
 * their reason; a failure throws what the case threw.
 */
export function describeCases<Case extends HarnessCase<never>>(
  name: string,
  suite: CaseSuite<Case>,
  options: DescribeCasesOptions,
  api: SuiteApi,
): void {
  const skip = options.skip ?? {};
  const known = new Set(suite.cases.map((testCase) => testCase.id));
  for (const id of Object.keys(skip)) {
    if (!known.has(id)) throw new Error(`${suite.kit}: options.skip names no case: ${JSON.stringify(id)}.`);
  }
  const timeoutMs = options.timeoutMs ?? suite.defaultTimeoutMs;
  api.describe(name, () => {
    for (const [group, cases] of groupCases(suite.cases)) {
      api.describe(group, () => {
        for (const testCase of cases) {
          api.it(
            testCase.name,
            async (context) => {
              const reason = skip[testCase.id];
              if (reason !== undefined) return context.skip(`skipped by options.skip: ${reason}`);
              const outcome = await suite.run(testCase, timeoutMs);
              if (outcome.status === 'skipped') return context.skip(outcome.reason);
              if (outcome.status === 'failed') throw outcome.error;
            },
            timeoutMs * testCase.timeoutScale + RUNNER_MARGIN_MS,
          );
        }
      });
    }
  });
}

/** Cases by group, groups in the order they first appear. */
export function groupCases<Case extends { readonly group: string }>(cases: readonly Case[]): Map<string, Case[]> {
  const groups = new Map<string, Case[]>();
  for (const testCase of cases) {
    const group = groups.get(testCase.group) ?? [];
    group.push(testCase);
    groups.set(testCase.group, group);
  }
  return groups;
}
