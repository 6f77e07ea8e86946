import { describe, expect, it } from 'vitest';
import { conformanceCases, runCase } from '../src/index.js';
import type { ConformanceCase } from '../src/index.js';
import { appendCopyBrokenProviders } from './append-copy-broken-providers.js';
import { brokenProviders as firstBrokenProviders } from './broken-providers.js';
import { moreBrokenProviders } from './more-broken-providers.js';
import { memfsTestbed } from './memfs-testbed.js';
import { stagingBrokenProviders } from './staging-broken-providers.js';
import { modeBrokenProviders } from './mode-broken-providers.js';

const brokenProviders = [
  ...firstBrokenProviders,
  ...moreBrokenProviders,
  ...stagingBrokenProviders,
  ...appendCopyBrokenProviders,
  ...modeBrokenProviders,
];
const byId = new Map(conformanceCases.map((testCase) => [testCase.id, testCase]));

function caseFor(id: string): ConformanceCase {
  const testCase = byId.get(id);
  if (testCase === undefined) throw new Error(`No case has the id ${JSON.stringify(id)}.`);
  return testCase;
}

describe('the kit catches a provider that breaks one promise', () => {
  for (const { name, factory, fails, passes = [] } of brokenProviders) {
    it(`${name}: fails ${fails.length} expected case(s)`, async () => {
      for (const id of fails) {
        const outcome = await runCase(caseFor(id), factory, { timeoutMs: 3000 });
        expect({ id, status: outcome.status }).toEqual({ id, status: 'failed' });
      }
      for (const id of passes) {
        const outcome = await runCase(caseFor(id), factory, { timeoutMs: 3000 });
        expect({ id, outcome }).toEqual({ id, outcome: { status: 'passed' } });
      }
      // The deep-tree cases build 1,000 levels synchronously on memfs: 28 s once under a load of 40.
    }, 120_000);
  }

  it('the real memfs provider passes every case the broken ones must fail', async () => {
    const ids = new Set(brokenProviders.flatMap(({ fails, passes = [] }) => [...fails, ...passes]));
    for (const id of ids) {
      // A generous deadline: the deepest-tree case alone can take seconds on a loaded 2-core machine.
      const outcome = await runCase(caseFor(id), () => memfsTestbed().underTest, { timeoutMs: 60_000 });
      expect({ id, outcome }).toEqual({ id, outcome: { status: 'passed' } });
    }
    // Every case the broken providers exercise, one after another: 28 s on a 2-core machine under load.
  }, 180_000);
});
