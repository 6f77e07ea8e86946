import { payloadByteLength } from '@libos/object-memory';
import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';

const group = 'quotas';

// [case, payloads already live, quota, the next payload, expected outcome]
const TABLE: readonly [
  string,
  readonly string[],
  { maxObjectsCount?: number; maxObjectsBytes?: number },
  string,
  'ok' | 'objects_max_count' | 'objects_max_bytes',
][] = [
  ['the last Object under the count quota', ['a', 'b'], { maxObjectsCount: 3 }, 'c', 'ok'],
  ['one Object past the count quota', ['a', 'b', 'c'], { maxObjectsCount: 3 }, 'd', 'objects_max_count'],
  ['a count quota of 1 with one live Object', ['a'], { maxObjectsCount: 1 }, 'b', 'objects_max_count'],
  ['bytes exactly at the quota', ['xxxx', 'xxxx'], { maxObjectsBytes: 18 }, 'xxxx', 'ok'],
  ['one byte past the quota', ['xxxx', 'xxxx'], { maxObjectsBytes: 17 }, 'xxxx', 'objects_max_bytes'],
  ['multi-byte text counted in UTF-8 bytes', ['éé'], { maxObjectsBytes: 9 }, 'é', 'objects_max_bytes'],
  ['an empty store and a payload larger than the quota', [], { maxObjectsBytes: 5 }, 'xxxxxx', 'objects_max_bytes'],
];

export const quotaCases: readonly StoreCase[] = [
  ...TABLE.map(([name, live, quota, next, expected]) =>
    defineStoreCase(group, name, async ({ store, object, create, expectError }) => {
      await store.declareNamespace('a');
      await store.declareNamespace('b');
      // Spread over two namespaces: the quotas count the whole store.
      for (const [index, payload] of live.entries()) await create(object(index % 2 === 0 ? 'a' : 'b', `live ${index}`, { payload }));
      const before = await store.usage();
      const candidate = object('b', 'next', { payload: next });
      if (expected === 'ok') {
        await create(candidate, quota);
        expect(await store.usage()).toEqual({ objects: before.objects + 1, bytes: before.bytes + payloadByteLength(next) });
        return;
      }
      const failure = await expectError(() => create(candidate, quota), 'quota_exceeded');
      expect(failure.details).toMatchObject({ quota: expected });
      expect(await store.usage()).toEqual(before);
      expect(await store.get('b', 'next')).toBeUndefined();
    }),
  ),
  defineStoreCase(group, 'usage counts creates and gives back exactly what a drop removes', async ({ store, object, create }) => {
    expect(await store.usage()).toEqual({ objects: 0, bytes: 0 });
    await store.declareNamespace('a');
    await store.declareNamespace('b');
    await create(object('a', '1', { payload: 'x'.repeat(100) }));
    await create(object('b', '2', { payload: { content: 'é'.repeat(10) } }));
    const second = payloadByteLength({ content: 'é'.repeat(10) });
    expect(await store.usage()).toEqual({ objects: 2, bytes: 102 + second });
    await store.dropNamespace('a');
    expect(await store.usage()).toEqual({ objects: 1, bytes: second });
    await create(object('b', '3', { payload: 'x'.repeat(100) }), { maxObjectsCount: 2, maxObjectsBytes: 102 + second });
  }),
  defineStoreCase(group, 'the store counts the payloadBytes it is given', async ({ store, object }) => {
    await store.declareNamespace('n');
    await store.create(object('n', 'a', { payload: 'x' }), { payloadBytes: 1000, quota: { maxObjectsCount: 10, maxObjectsBytes: 1500 } });
    expect(await store.usage()).toEqual({ objects: 1, bytes: 1000 });
    const refused = store.create(object('n', 'b', { payload: 'x' }), { payloadBytes: 501, quota: { maxObjectsCount: 10, maxObjectsBytes: 1500 } });
    await expect(refused).rejects.toMatchObject({ code: 'quota_exceeded' });
  }),
  defineStoreCase(group, 'namespace_not_found and name_taken are decided before the quota', async ({ store, object, create, expectError }) => {
    await store.declareNamespace('n');
    await create(object('n', 'a'));
    await expectError(() => create(object('n', 'a'), { maxObjectsCount: 1 }), 'name_taken');
    await expectError(() => create(object('missing', 'b'), { maxObjectsCount: 1 }), 'namespace_not_found');
    await expectError(() => create(object('n', 'b'), { maxObjectsCount: 1 }), 'quota_exceeded');
  }),
];
