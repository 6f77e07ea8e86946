import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';

const group = 'lifecycle';

export const lifecycleCases: readonly StoreCase[] = [
  defineStoreCase(group, 'declares the v1 interface and capabilities', async ({ store }) => {
    expect(store.specificationVersion).toBe('v1');
    expect(typeof store.name).toBe('string');
    expect(store.name.length).toBeGreaterThan(0);
    expect(typeof store.capabilities.shared).toBe('boolean');
    expect(typeof store.capabilities.durable).toBe('boolean');
    if (store.capabilities.leaseMs !== undefined) expect(store.capabilities.leaseMs).toBeGreaterThan(0);
  }),
  defineStoreCase(group, 'close is safe twice and later calls reject with provider_failure', async ({ store, expectError }) => {
    await store.declareNamespace('n');
    await store.close();
    await store.close();
    await expectError(() => store.hasNamespace('n'), 'provider_failure', 'any');
    await expectError(() => store.spendUses('k', 1, 1), 'provider_failure', 'any');
  }),
  defineStoreCase(
    group,
    'an Object created through one instance is read through another',
    async ({ store, another, object, create }) => {
      const other = await another();
      await store.declareNamespace('shared');
      const created = object('shared', 'plan', { type: 'plan', payload: { content: 'made here' } });
      await create(created);
      expect((await other.get('shared', 'plan'))?.oid).toBe(created.oid);
      expect(await other.listNamespaces()).toEqual(['shared']);
      expect(await other.usage()).toMatchObject({ objects: 1 });
    },
    { capabilities: ['shared'], fixtures: ['openAnother'] },
  ),
  defineStoreCase(
    group,
    'declared namespaces, their Objects and the ledger survive closing the store',
    async ({ store, another, object, create }) => {
      await store.declareNamespace('shared');
      const created = object('shared', 'kept');
      await create(created);
      await store.spendUses('policy:p/grant:0/k', 2, 3);
      await store.close();
      const reopened = await another();
      expect((await reopened.get('shared', 'kept'))?.oid).toBe(created.oid);
      expect(await reopened.spentUses('policy:p/grant:0/k')).toBe(2);
    },
    { capabilities: ['durable'], fixtures: ['openAnother'] },
  ),
  defineStoreCase(
    group,
    'a process namespace whose lease is not renewed is dropped with its Objects; declared ones stay',
    async ({ store, another, object, create, capabilities }) => {
      await store.declareNamespace('process:pid_00000000000000cc', { process: true });
      await store.declareNamespace('shared');
      await create(object('process:pid_00000000000000cc', 'scratch'));
      await create(object('shared', 'kept'));
      // Its owner goes (a host that died): a sweep never takes the namespace of an owner still alive.
      await store.close();
      // Waiting longer than the lease can only make expiry more certain, so a slow machine cannot fail this.
      await new Promise((resolve) => setTimeout(resolve, capabilities.leaseMs! * 3));
      const other = await another();
      await other.renewLeases([]);
      expect(await other.hasNamespace('process:pid_00000000000000cc')).toBe(false);
      expect(await other.get('process:pid_00000000000000cc', 'scratch')).toBeUndefined();
      expect(await other.listNames('shared')).toEqual(['kept']);
    },
    { capabilities: ['leaseMs'], fixtures: ['openAnother'] },
  ),
];
