import type { ObjectStoreV1 } from '@libos/core';
import { expect } from 'vitest';
import { defineStoreCase, type StoreCase, type StoreCaseContext } from '../store-case.js';

const group = 'cancellation';

/** Every method of the store, called with `signal`, on a store holding namespace `n` and Object `kept`. */
function everyCall(context: StoreCaseContext, store: ObjectStoreV1, signal: AbortSignal): Array<[string, () => Promise<unknown>]> {
  const fresh = context.object('n', 'fresh');
  return [
    ['declareNamespace', () => store.declareNamespace('other', { signal })],
    ['hasNamespace', () => store.hasNamespace('n', { signal })],
    ['listNamespaces', () => store.listNamespaces({ signal })],
    ['dropNamespace', () => store.dropNamespace('n', { signal })],
    ['renewLeases', () => store.renewLeases(['n'], { signal })],
    ['create', () => store.create(fresh, { payloadBytes: 10, quota: { maxObjectsCount: 100, maxObjectsBytes: 10_000 }, signal })],
    ['get', () => store.get('n', 'kept', { signal })],
    ['getByOid', () => store.getByOid(fresh.oid, { signal })],
    ['listNames', () => store.listNames('n', { signal })],
    ['usage', () => store.usage({ signal })],
    ['spendUses', () => store.spendUses('k', 1, 5, { signal })],
    ['refundUses', () => store.refundUses('k', 1, { signal })],
    ['spentUses', () => store.spentUses('k', { signal })],
  ];
}

/** A signal that has already aborted stops every method before it changes anything. */
export const cancellationCases: readonly StoreCase[] = [
  defineStoreCase(group, 'every call with an aborted signal fails with provider_failure and changes nothing', async (context) => {
    const { store, expectError } = context;
    await store.declareNamespace('n');
    await context.create(context.object('n', 'kept'));
    expect(await store.spendUses('k', 2, 5)).toBe(true);
    const before = JSON.stringify([await store.listNamespaces(), await store.listNames('n'), await store.usage(), await store.spentUses('k')]);
    for (const [method, call] of everyCall(context, store, AbortSignal.abort())) {
      const error = await expectError(call, 'provider_failure');
      expect(error.details?.reason, `${method}: ${error.message}`).toBe('cancelled');
    }
    expect(JSON.stringify([await store.listNamespaces(), await store.listNames('n'), await store.usage(), await store.spentUses('k')])).toBe(before);
  }),
  defineStoreCase(group, 'a signal that never aborts changes nothing about a call', async (context) => {
    const { store } = context;
    const { signal } = new AbortController();
    await store.declareNamespace('n', { signal });
    const created = context.object('n', 'x');
    await store.create(created, { payloadBytes: 5, quota: { maxObjectsCount: 10, maxObjectsBytes: 100 }, signal });
    expect((await store.get('n', 'x', { signal }))?.oid).toBe(created.oid);
    expect(await store.spendUses('k', 1, 1, { signal })).toBe(true);
  }),
];
