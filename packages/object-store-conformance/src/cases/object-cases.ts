import { LABELS } from '@libos/core';
import { OBJECT_TYPES, type MemoryObject } from '@libos/object-memory';
import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';
import { expectSameObject } from './case-helpers.js';

const group = 'objects';

export const objectCases: readonly StoreCase[] = [
  defineStoreCase(group, 'get and getByOid return the Object as created, every field exactly', async ({ store, object, create }) => {
    await store.declareNamespace('team/notes');
    const created = object('team/notes', 'plan: ünïcode 😀', {
      type: 'plan',
      label: 'confidential',
      created_at: '2026-01-02T03:04:05.678Z',
      created_by: 'pid_0123456789abcdef',
      payload: { z: 1, a: [true, null, 2.5, -3, 'x'], m: { b: '', a: {} } },
    });
    await create(created);
    expectSameObject(await store.get('team/notes', 'plan: ünïcode 😀'), created);
    expectSameObject(await store.getByOid(created.oid), created);
  }),
  defineStoreCase(group, 'every label is kept', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    for (const label of LABELS) await create(object('n', label, { label }));
    for (const label of LABELS) expect((await store.get('n', label))?.label).toBe(label);
  }),
  defineStoreCase(group, 'every Object type is kept', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    for (const type of OBJECT_TYPES) await create(object('n', type, { type }));
    for (const type of OBJECT_TYPES) expect((await store.get('n', type))?.type).toBe(type);
  }),
  defineStoreCase(group, "listNames gives a namespace's names in creation order", async ({ store, object, create }) => {
    await store.declareNamespace('n');
    await store.declareNamespace('other');
    const names = ['m', 'b', 'z', 'a', '😀', '\uFFFD', 'B'];
    for (const name of names) await create(object('n', name));
    await create(object('other', 'c'));
    expect(await store.listNames('n')).toEqual(names);
    expect(await store.listNames('missing')).toEqual([]);
  }),
  defineStoreCase(group, 'a missing name, a missing oid and a missing namespace read as undefined', async ({ store }) => {
    await store.declareNamespace('n');
    expect(await store.get('n', 'nothing')).toBeUndefined();
    expect(await store.get('missing', 'nothing')).toBeUndefined();
    expect(await store.getByOid('obj_0000000000000000')).toBeUndefined();
  }),
  defineStoreCase(group, 'one name in two namespaces is two Objects', async ({ store, object, create }) => {
    await store.declareNamespace('a');
    await store.declareNamespace('b');
    const first = object('a', 'same', { payload: 'first' });
    const second = object('b', 'same', { payload: 'second' });
    await create(first);
    await create(second);
    expectSameObject(await store.get('a', 'same'), first);
    expectSameObject(await store.get('b', 'same'), second);
  }),
  defineStoreCase(group, 'a taken name is name_taken: never overwritten, never upserted', async ({ store, object, create, expectError }) => {
    await store.declareNamespace('n');
    const first = object('n', 'report', { payload: 'v1' });
    await create(first);
    const failure = await expectError(() => create(object('n', 'report', { payload: 'v2', type: 'summary' })), 'name_taken');
    expect(failure.details).toMatchObject({ namespace: 'n', name: 'report' });
    expectSameObject(await store.get('n', 'report'), first);
    expect(await store.listNames('n')).toEqual(['report']);
    expect(await store.usage()).toMatchObject({ objects: 1 });
  }),
  defineStoreCase(group, 'changing a returned Object cannot change what the store holds', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    const created = object('n', 'frozen', { payload: { content: 'a', nested: { list: [1, { deep: true }] } } });
    await create(created);
    const returned = (await store.get('n', 'frozen')) as unknown as { name: string; payload: { content: string; nested: { list: unknown[] } } };
    // A frozen value throws in strict mode; a copy may change. Either way the store must not.
    const attempts = [
      () => (returned.name = 'other'),
      () => (returned.payload.content = 'changed'),
      () => returned.payload.nested.list.push(2),
      () => ((returned.payload.nested.list[1] as { deep: boolean }).deep = false),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
      } catch {
        // frozen
      }
    }
    expectSameObject(await store.get('n', 'frozen'), created);
    expectSameObject(await store.getByOid(created.oid), created);
  }),
  defineStoreCase(group, 'names up to the arguments bound and names with every kind of character are kept', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    const names = ['x'.repeat(100_000), 'a:b', 'with spaces inside', '\u202eevil', 'tab\there', 'new\nline', '"quoted" \\ back', 'ＡＢＣ'];
    const created: MemoryObject[] = [];
    for (const name of names) {
      const item = object('n', name);
      created.push(item);
      await create(item);
    }
    for (const item of created) expectSameObject(await store.get('n', item.name), item);
    expect(await store.listNames('n')).toEqual(names);
  }),
];
