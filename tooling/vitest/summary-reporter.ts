import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { elapsedLine } from './elapsed.js';
import { describeSkips, type SkippedTest } from './skip-reasons.js';

function suitesOf(test: TestCase): string[] {
  const names: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) names.unshift(parent.name);
  return names;
}

/**
 * Ends a run with the plain line CI reads, always last: "N passed, N failed, N skipped". The lines just
 * above it say what the skips were, by category, so a reader never meets a bare count of skips, and
 * how long the run took.
 */
export default class SummaryReporter implements Reporter {
  private readonly started = Date.now();

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    const skipped: SkippedTest[] = [];
    for (const testModule of testModules) {
      const tests = [...testModule.children.allTests()];
      for (const test of tests) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failed++;
        else {
          const note = result.state === 'skipped' ? result.note : undefined;
          skipped.push({ note, suites: suitesOf(test), name: test.name, file: relative(process.cwd(), testModule.moduleId) });
        }
      }
      // A file that failed to load has no tests; it still counts as a failure.
      if (testModule.state() === 'failed' && tests.length === 0) failed++;
    }
    failed += unhandledErrors.length;
    const lines = skipped.length === 0 ? [] : [`\nskipped, by reason:`, ...describeSkips(skipped)];
    lines.push(elapsedLine(Date.now() - this.started, process.env.LIBOS_TEST_STARTED, Date.now()));
    process.stdout.write(`${lines.join('\n')}\n${passed} passed, ${failed} failed, ${skipped.length} skipped\n`);
  }
}
