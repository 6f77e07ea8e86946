import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';

const group = 'namespaces';

// Code-point order differs from UTF-16 order: U+FFFD sorts before an astral character by code
// point, after it by UTF-16 units.
const UNSORTED = ['b', 'process:pid_0000000000000001', '😀', '\uFFFD', 'B', 'a/b', 'a', 'é'];
const CODE_POINT_ORDER = ['B', 'a', 'a/b', 'b', 'process:pid_0000000000000001', 'é', '\uFFFD', '😀'];

// Pairs a store must keep apart: case, Unicode normalization (NFC vs NFD), trailing text.
const DISTINCT_NAMES: readonly [string, string][] = [
  ['Notes', 'notes'],
  ['caf\u00e9', 'cafe\u0301'],
  ['plan', 'plan.'],
  ['a', 'a\u200b'],
];

export const namespaceCases: readonly StoreCase[] = [
  defineStoreCase(group, 'a namespace exists once declared, and declaring again keeps its Objects', async ({ store, object, create }) => {
    expect(await store.hasNamespace('shared')).toBe(false);
    await store.declareNamespace('shared');
    expect(await store.hasNamespace('shared')).toBe(true);
    const kept = object('shared', 'kept');
    await create(kept);
    await store.declareNamespace('shared');
    await store.declareNamespace('shared', { process: false });
    expect(await store.listNames('shared')).toEqual(['kept']);
    expect((await store.get('shared', 'kept'))?.oid).toBe(kept.oid);
  }),
  defineStoreCase(group, 'listNamespaces is sorted by code point, each name once', async ({ store }) => {
    for (const namespace of UNSORTED) await store.declareNamespace(namespace, { process: namespace.startsWith('process:') });
    await store.declareNamespace('a');
    expect(await store.listNamespaces()).toEqual(CODE_POINT_ORDER);
  }),
  defineStoreCase(group, 'namespace and Object names are compared exactly (no case folding, no normalization)', async ({ store, object, create }) => {
    for (const [left, right] of DISTINCT_NAMES) {
      await store.declareNamespace(left);
      expect(await store.hasNamespace(right), `${JSON.stringify(right)} after declaring ${JSON.stringify(left)}`).toBe(false);
      await store.declareNamespace(right);
      const first = object(left, left);
      const second = object(left, right);
      await create(first);
      await create(second);
      expect((await store.get(left, right))?.oid).toBe(second.oid);
      expect(await store.get(right, left)).toBeUndefined();
    }
  }),
  defineStoreCase(
    group,
    'a create in a namespace that does not exist is namespace_not_found and stores nothing',
    async ({ store, object, create, expectError }) => {
      await expectError(() => create(object('nowhere', 'x')), 'namespace_not_found');
      expect(await store.hasNamespace('nowhere')).toBe(false);
      expect(await store.usage()).toEqual({ objects: 0, bytes: 0 });
    },
  ),
  defineStoreCase(
    group,
    'dropNamespace removes the namespace and its Objects, frees their names and touches nothing else',
    async ({ store, object, create, expectError }) => {
      await store.declareNamespace('process:pid_0000000000000001', { process: true });
      await store.declareNamespace('shared');
      const mine = [object('process:pid_0000000000000001', 'a'), object('process:pid_0000000000000001', 'b')];
      for (const item of mine) await create(item);
      const kept = object('shared', 'a');
      await create(kept);
      expect(await store.dropNamespace('process:pid_0000000000000001')).toBe(2);
      expect(await store.hasNamespace('process:pid_0000000000000001')).toBe(false);
      expect(await store.listNamespaces()).toEqual(['shared']);
      expect(await store.get('process:pid_0000000000000001', 'a')).toBeUndefined();
      expect(await store.getByOid(mine[0]!.oid)).toBeUndefined();
      expect(await store.listNames('process:pid_0000000000000001')).toEqual([]);
      await expectError(() => create(object('process:pid_0000000000000001', 'c')), 'namespace_not_found');
      expect((await store.get('shared', 'a'))?.oid).toBe(kept.oid);
      await store.declareNamespace('process:pid_0000000000000001', { process: true });
      expect(await store.listNames('process:pid_0000000000000001')).toEqual([]);
      await create(object('process:pid_0000000000000001', 'a'));
    },
  ),
  defineStoreCase(group, 'dropping a namespace that does not exist resolves 0 and changes nothing', async ({ store, object, create }) => {
    await store.declareNamespace('shared');
    await create(object('shared', 'a'));
    expect(await store.dropNamespace('other')).toBe(0);
    expect(await store.dropNamespace('Shared')).toBe(0);
    expect(await store.listNamespaces()).toEqual(['shared']);
    expect(await store.usage()).toMatchObject({ objects: 1 });
  }),
  defineStoreCase(group, 'process namespaces are listed, renewable, and renewing unknown names is harmless', async ({ store }) => {
    await store.declareNamespace('process:pid_0000000000000002', { process: true });
    await store.renewLeases(['process:pid_0000000000000002', 'process:pid_ffffffffffffffff', 'never']);
    await store.renewLeases([]);
    expect(await store.listNamespaces()).toEqual(['process:pid_0000000000000002']);
    expect(await store.hasNamespace('never')).toBe(false);
  }),
];
