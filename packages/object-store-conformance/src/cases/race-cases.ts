import { expect } from 'vitest';
import { defineStoreCase, type StoreCase, type StoreCaseContext } from '../store-case.js';
import { expectSameObject, tally } from './case-helpers.js';

const group = 'races';

async function racingCreators(context: StoreCaseContext, creators: number, spread: boolean) {
  const { store, object, create } = context;
  await store.declareNamespace('shared');
  const other = spread ? await context.another() : store;
  const candidates = Array.from({ length: creators }, (_, index) => object('shared', 'race', { payload: { index } }));
  const outcomes = await Promise.allSettled(candidates.map((candidate, index) => create(candidate, {}, index % 2 === 0 ? store : other)));
  const { fulfilled, codes } = tally(outcomes);
  expect(fulfilled, 'creators that won').toBe(1);
  expect(new Set(codes)).toEqual(new Set(['name_taken']));
  const winner = candidates[outcomes.findIndex((outcome) => outcome.status === 'fulfilled')]!;
  expectSameObject(await store.get('shared', 'race'), winner);
  if (spread) expectSameObject(await other.get('shared', 'race'), winner);
  expect(await store.usage()).toMatchObject({ objects: 1 });
}

export const raceCases: readonly StoreCase[] = [
  defineStoreCase(group, 'of 40 concurrent creators of one name exactly one wins', (context) => racingCreators(context, 40, false)),
  defineStoreCase(
    group,
    'of 40 concurrent creators of one name on two store instances exactly one wins',
    (context) => racingCreators(context, 40, true),
    { capabilities: ['shared'], fixtures: ['openAnother'] },
  ),
  defineStoreCase(group, 'concurrent creators cannot pass the count quota together', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => create(object('n', `o${index}`), { maxObjectsCount: 5 })));
    const { fulfilled, codes } = tally(outcomes);
    expect(fulfilled).toBe(5);
    expect(new Set(codes)).toEqual(new Set(['quota_exceeded']));
    expect(await store.usage()).toMatchObject({ objects: 5 });
    expect(await store.listNames('n')).toHaveLength(5);
  }),
  defineStoreCase(group, 'concurrent creators cannot pass the byte quota together', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    // Each payload is "xxxxxxxx" plus quotes: 10 bytes; 45 bytes hold four.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) => create(object('n', `o${index}`, { payload: 'x'.repeat(8) }), { maxObjectsBytes: 45 })),
    );
    expect(tally(outcomes).fulfilled).toBe(4);
    expect(await store.usage()).toEqual({ objects: 4, bytes: 40 });
  }),
  defineStoreCase(group, 'creates in many namespaces at once all land, each once', async ({ store, object, create }) => {
    const namespaces = Array.from({ length: 10 }, (_, index) => `n${index}`);
    await Promise.all(namespaces.map((namespace) => store.declareNamespace(namespace)));
    await Promise.all(namespaces.flatMap((namespace) => Array.from({ length: 5 }, (_, index) => create(object(namespace, `o${index}`)))));
    for (const namespace of namespaces) expect(await store.listNames(namespace)).toHaveLength(5);
    expect(await store.usage()).toMatchObject({ objects: 50 });
  }),
];
