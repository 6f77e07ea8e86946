import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';

const group = 'uses ledger';

// [case, spends as [amount, limit], what each returns, the count after]
const TABLE: readonly [string, readonly [number, number][], readonly boolean[], number][] = [
  [
    'spends up to the limit, then refuses',
    [
      [1, 2],
      [1, 2],
      [1, 2],
    ],
    [true, true, false],
    2,
  ],
  ['spends N at once when N fit', [[3, 3]], [true], 3],
  [
    'refuses N that do not fit and spends nothing',
    [
      [2, 3],
      [2, 3],
      [1, 3],
    ],
    [true, false, true],
    3,
  ],
  [
    'a limit of 1 allows one use',
    [
      [1, 1],
      [1, 1],
    ],
    [true, false],
    1,
  ],
  ['an amount over the limit is refused on a fresh key', [[4, 3]], [false], 0],
];

const KEYS = [
  'policy:fleet/grant:0/abc',
  'policy:fleet/grant:0/ABC',
  'policy:flèet/grant:0/abc',
  `policy:${'p'.repeat(200)}/grant:99/${'f'.repeat(32)}`,
  'k'.repeat(1024),
  '😀',
];

export const ledgerCases: readonly StoreCase[] = [
  defineStoreCase(group, 'a key never spent has count 0', async ({ store }) => {
    expect(await store.spentUses('policy:never/grant:0/x')).toBe(0);
  }),
  ...TABLE.map(([name, spends, expected, after]) =>
    defineStoreCase(group, name, async ({ store }) => {
      const results: boolean[] = [];
      for (const [amount, limit] of spends) results.push(await store.spendUses('policy:p/grant:0/k', amount, limit));
      expect(results).toEqual(expected);
      expect(await store.spentUses('policy:p/grant:0/k')).toBe(after);
    }),
  ),
  defineStoreCase(group, 'keys are counted apart and compared exactly', async ({ store }) => {
    for (const [index, key] of KEYS.entries()) {
      for (let use = 0; use <= index; use++) expect(await store.spendUses(key, 1, 100)).toBe(true);
    }
    for (const [index, key] of KEYS.entries()) expect(await store.spentUses(key)).toBe(index + 1);
  }),
  defineStoreCase(group, 'of 30 concurrent spenders with a limit of 3 exactly 3 are granted', async ({ store }) => {
    const granted = await Promise.all(Array.from({ length: 30 }, () => store.spendUses('policy:p/grant:1/k', 1, 3)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(await store.spentUses('policy:p/grant:1/k')).toBe(3);
  }),
  defineStoreCase(group, 'concurrent spenders of 2 never pass the limit together', async ({ store }) => {
    const granted = await Promise.all(Array.from({ length: 20 }, () => store.spendUses('policy:p/grant:2/k', 2, 7)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(await store.spentUses('policy:p/grant:2/k')).toBe(6);
  }),
  defineStoreCase(
    group,
    'of 30 concurrent spenders on two store instances exactly 3 are granted',
    async ({ store, another }) => {
      const other = await another();
      const granted = await Promise.all(
        Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? store : other).spendUses('policy:p/grant:3/k', 1, 3)),
      );
      expect(granted.filter(Boolean)).toHaveLength(3);
      expect(await other.spentUses('policy:p/grant:3/k')).toBe(3);
    },
    { capabilities: ['shared'], fixtures: ['openAnother'] },
  ),
  defineStoreCase(group, 'a refund gives uses back, never below 0', async ({ store }) => {
    expect(await store.spendUses('policy:p/grant:4/k', 2, 2)).toBe(true);
    await store.refundUses('policy:p/grant:4/k', 1);
    expect(await store.spentUses('policy:p/grant:4/k')).toBe(1);
    expect(await store.spendUses('policy:p/grant:4/k', 1, 2)).toBe(true);
    await store.refundUses('policy:p/grant:4/k', 5);
    expect(await store.spentUses('policy:p/grant:4/k')).toBe(0);
    await store.refundUses('policy:p/grant:never/k', 1);
    expect(await store.spentUses('policy:p/grant:never/k')).toBe(0);
  }),
  defineStoreCase(group, 'concurrent spends and refunds keep an exact count', async ({ store }) => {
    await store.spendUses('policy:p/grant:5/k', 10, 10);
    await Promise.all(Array.from({ length: 10 }, () => store.refundUses('policy:p/grant:5/k', 1)));
    expect(await store.spentUses('policy:p/grant:5/k')).toBe(0);
    const granted = await Promise.all(Array.from({ length: 15 }, () => store.spendUses('policy:p/grant:5/k', 1, 10)));
    expect(granted.filter(Boolean)).toHaveLength(10);
  }),
  defineStoreCase(group, 'dropping namespaces leaves the ledger alone', async ({ store }) => {
    await store.declareNamespace('process:pid_0000000000000003', { process: true });
    await store.spendUses('policy:p/grant:6/k', 1, 5);
    await store.dropNamespace('process:pid_0000000000000003');
    expect(await store.spentUses('policy:p/grant:6/k')).toBe(1);
  }),
];
