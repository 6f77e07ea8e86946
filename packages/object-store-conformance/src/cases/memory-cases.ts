import { join } from 'node:path';
import { DEFAULT_BOUNDS, LibosError } from '@libos/core';
import { payloadByteLength } from '@libos/object-memory';
import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';
import { expectSameObject, tally } from './case-helpers.js';

const group = 'object memory on the store';
const pid = 'pid_00000000000000bb';

export const memoryCases: readonly StoreCase[] = [
  defineStoreCase(group, 'the payload gate lets exactly its bound through and stores nothing over it', async ({ store, memory, expectError }) => {
    const objects = await memory({ namespaces: ['n'], maxPayloadBytes: 100 });
    // {"content":"..."} is 14 bytes around the text.
    await objects.create({ namespace: 'n', name: 'fits', type: 'artifact', payload: { content: 'x'.repeat(86) }, createdBy: pid });
    await expectError(
      () => objects.create({ namespace: 'n', name: 'over', type: 'artifact', payload: { content: 'x'.repeat(87) }, createdBy: pid }),
      'too_large',
    );
    expect(await store.listNames('n')).toEqual(['fits']);
    expect(await store.usage()).toEqual({ objects: 1, bytes: 100 });
  }),
  defineStoreCase(group, 'a payload of exactly object_payload_max_bytes (16 MiB) goes in and comes back exactly', async ({ store, memory }) => {
    const objects = await memory({ namespaces: ['n'] });
    const content =
      'é😀\u0000'.repeat(1000) + 'y'.repeat(DEFAULT_BOUNDS.object_payload_max_bytes - payloadByteLength({ content: 'é😀\u0000'.repeat(1000) }));
    const payload = { content };
    expect(payloadByteLength(payload)).toBe(DEFAULT_BOUNDS.object_payload_max_bytes);
    const created = await objects.create({ namespace: 'n', name: 'max', type: 'artifact', payload, createdBy: pid });
    expectSameObject(await store.get('n', 'max'), created);
    expect(await store.usage()).toEqual({ objects: 1, bytes: DEFAULT_BOUNDS.object_payload_max_bytes });
  }),
  defineStoreCase(group, 'of 40 racing memory.create calls for one name exactly one wins', async ({ memory }) => {
    const objects = await memory({ namespaces: ['shared'] });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) =>
        objects.create({ namespace: 'shared', name: ' race ', type: 'plan', payload: { index }, createdBy: pid }),
      ),
    );
    const { fulfilled, codes } = tally(outcomes);
    expect(fulfilled).toBe(1);
    expect(new Set(codes)).toEqual(new Set(['name_taken']));
    expect((await objects.list('shared')).map((object) => object.name)).toEqual(['race']);
  }),
  defineStoreCase(group, 'quota_exceeded comes through Object Memory with effect none', async ({ memory, expectError }) => {
    const objects = await memory({ namespaces: ['n'], maxObjectsCount: 1 });
    await objects.create({ namespace: 'n', name: 'a', type: 'artifact', payload: 1, createdBy: pid });
    await expectError(() => objects.create({ namespace: 'n', name: 'b', type: 'artifact', payload: 1, createdBy: pid }), 'quota_exceeded');
  }),
  defineStoreCase(group, 'a checkpoint of the store restores the same Objects into a fresh memory', async ({ store, memory, temporaryDirectory }) => {
    const objects = await memory({ namespaces: ['shared', 'team/notes'] });
    const own = await objects.openProcessNamespace(pid);
    const made = [
      await objects.create({
        namespace: 'shared',
        name: 'plan',
        type: 'plan',
        payload: { content: 'step 1\u0000\u2028' },
        label: 'secret',
        createdBy: pid,
      }),
      await objects.create({ namespace: 'team/notes', name: 'n', type: 'summary', payload: 42, label: 'public', createdBy: pid }),
      await objects.create({ namespace: own, name: 'mine', type: 'artifact', payload: 'mine', createdBy: pid }),
    ];
    const file = join(await temporaryDirectory(), 'memory.sqlite');
    expect(await objects.checkpoint(file, { namespaces: ['shared', 'team/notes'] })).toEqual({ namespaces: ['shared', 'team/notes'], objects: 2 });
    await objects.dropNamespace('shared');
    await objects.dropNamespace('team/notes');
    const restored = await objects.restore(file);
    expect(restored).toEqual({ namespaces: ['shared', 'team/notes'], objects: 2 });
    expectSameObject(await store.get('shared', 'plan'), made[0]!);
    expectSameObject(await store.get('team/notes', 'n'), made[1]!);
    // A second restore of the same file would repeat names and oids: refused whole.
    const failure = await objects.restore(file).catch((error: unknown) => error);
    expect(LibosError.is(failure, 'name_taken')).toBe(true);
  }),
  defineStoreCase(
    group,
    'closing the memory drops the process namespaces it opened and keeps declared ones',
    async ({ another, memory }) => {
      const objects = await memory({ namespaces: ['shared'] });
      const own = await objects.openProcessNamespace(pid);
      await objects.create({ namespace: own, name: 'scratch', type: 'artifact', payload: 1, createdBy: pid });
      await objects.create({ namespace: 'shared', name: 'kept', type: 'artifact', payload: 1, createdBy: pid });
      await objects.close();
      const other = await another();
      expect(await other.hasNamespace(own)).toBe(false);
      expect(await other.listNames('shared')).toEqual(['kept']);
    },
    { capabilities: ['shared'], fixtures: ['openAnother'] },
  ),
];
