import { LibosError } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { createMemoryObjectStore, newObjectId, type MemoryObject } from '../src/index.js';

const quota = { maxObjectsCount: 3, maxObjectsBytes: 100 };
const object = (namespace: string, name: string): MemoryObject =>
  Object.freeze({
    oid: newObjectId(),
    namespace,
    name,
    type: 'artifact',
    payload: 'x',
    label: 'normal',
    created_at: new Date().toISOString(),
    created_by: 'pid_0',
  });

async function codeOf(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    if (LibosError.is(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('the in-memory Object store', () => {
  it('decides names, namespaces and quotas in the order the interface gives', async () => {
    const store = createMemoryObjectStore();
    expect(await codeOf(store.create(object('n', 'a'), { payloadBytes: 3, quota }))).toBe('namespace_not_found');
    await store.declareNamespace('n');
    const first = object('n', 'a');
    await store.create(first, { payloadBytes: 3, quota });
    expect(await codeOf(store.create(object('n', 'a'), { payloadBytes: 3, quota }))).toBe('name_taken');
    expect(await codeOf(store.create(object('n', 'b'), { payloadBytes: 98, quota }))).toBe('quota_exceeded');
    expect(await store.get('n', 'a')).toBe(first);
    expect(await store.usage()).toEqual({ objects: 1, bytes: 3 });
    expect(await store.dropNamespace('n')).toBe(1);
    expect(await store.usage()).toEqual({ objects: 0, bytes: 0 });
    expect(await store.getByOid(first.oid)).toBeUndefined();
  });

  it('never grants more uses than the limit to concurrent spenders', async () => {
    const store = createMemoryObjectStore();
    const granted = await Promise.all(Array.from({ length: 30 }, () => store.spendUses('k', 1, 3)));
    expect(granted.filter(Boolean)).toHaveLength(3);
    expect(await store.spentUses('k')).toBe(3);
    await store.refundUses('k', 1);
    expect(await store.spendUses('k', 2, 3)).toBe(false);
    expect(await store.spendUses('k', 1, 3)).toBe(true);
  });
});
