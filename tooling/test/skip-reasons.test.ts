// The run's summary says what its skips are: no bare count of skipped tests.
import { describe, expect, it } from 'vitest';
import { describeSkips, skipCategory } from '../vitest/skip-reasons.js';

const skipped = (note: string | undefined, suites: string[] = ['kit'], file = 'packages/x/test/a.test.ts') => ({ note, suites, name: 't', file });

describe('skip reasons', () => {
  it('counts the conformance kits capability cases by what the subject lacks', () => {
    const lines = describeSkips([
      skipped('the provider does not declare capabilities.symlinks'),
      skipped('the provider does not declare capabilities.symlinks'),
      skipped('the store has no openDirectory method'),
      skipped('the factory does not provide a hard link fixture'),
    ]);
    expect(lines).toEqual([
      '  4 capability cases, a provider or store lacks what the case needs (symlinks 2, openDirectory() 1, fixture a hard link fixture 1)',
    ]);
  });

  it('names a suite that says why, a note, and else the file and suite of a skipIf', () => {
    expect(skipCategory(skipped(undefined, ['libos --provider postgres (skipped: PostgreSQL is not installed)', 'reads']))).toEqual({
      category: 'PostgreSQL is not installed',
    });
    expect(skipCategory(skipped('needs root to run the squatter as nobody'))).toEqual({ category: 'needs root to run the squatter as nobody' });
    expect(skipCategory(skipped(undefined, ['the review page in headless Chromium'], 'packages/review/test/page.e2e.test.ts'))).toEqual({
      category: 'packages/review/test/page.e2e.test.ts: the review page in headless Chromium',
    });
  });

  it('puts the most frequent reason first, every skip in some line', () => {
    const tests = [skipped('rare'), skipped('often'), skipped('often'), skipped(undefined, [])];
    const lines = describeSkips(tests);
    expect(lines[0]).toBe('  2 often');
    expect(lines.reduce((sum, line) => sum + Number(line.trim().split(' ')[0]), 0)).toBe(tests.length);
  });
});
