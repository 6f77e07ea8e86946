import { createMemoryObjectStore } from '@libos/object-memory';
import { describe, expect, it } from 'vitest';
import { runStoreCase, storeConformanceCases, type StoreCase } from '../src/index.js';
import { brokenStores } from './broken-stores.js';

const byId = new Map(storeConformanceCases.map((testCase) => [testCase.id, testCase]));

function caseFor(id: string): StoreCase {
  const testCase = byId.get(id);
  if (testCase === undefined) throw new Error(`No case has the id ${JSON.stringify(id)}.`);
  return testCase;
}

describe('the kit catches a store that breaks one promise', () => {
  for (const { name, factory, fails } of brokenStores) {
    it(`${name}: fails ${fails.length} expected case(s)`, async () => {
      for (const id of fails) {
        const outcome = await runStoreCase(caseFor(id), factory);
        expect({ id, status: outcome.status }).toEqual({ id, status: 'failed' });
      }
    });
  }

  it('the real in-memory store passes every case the broken ones must fail', async () => {
    const ids = new Set(brokenStores.flatMap(({ fails }) => fails));
    for (const id of ids) {
      const outcome = await runStoreCase(caseFor(id), () => ({ store: createMemoryObjectStore() }));
      expect({ id, outcome }).toEqual({ id, outcome: { status: 'passed' } });
    }
  });

  it('has stable, unique ids and at least one case per promise of the interface', () => {
    const groups = new Set(storeConformanceCases.map((testCase) => testCase.group));
    expect([...groups]).toEqual([
      'lifecycle',
      'namespaces',
      'objects',
      'quotas',
      'races',
      'payload texts',
      'uses ledger',
      'object memory on the store',
      'cancellation',
    ]);
    expect(new Set(storeConformanceCases.map((testCase) => testCase.id)).size).toBe(storeConformanceCases.length);
  });
});
