import { describe, expect, it } from 'vitest';
import { createObjectMemory, payloadByteLength, processNamespace } from '../src/index.js';
import { failureOf, pid } from './support.js';

const make = (namespace: string, name: string, payload: unknown) => ({ namespace, name, type: 'artifact' as const, payload, createdBy: pid });

describe('Object Memory quotas', () => {
  it('refuses the Object past objects_max_count with quota_exceeded, storing nothing', async () => {
    const memory = await createObjectMemory({ namespaces: ['shared'], maxObjectsCount: 2 });
    await memory.create(make('shared', 'a', 1));
    await memory.create(make('shared', 'b', 2));
    const failure = await failureOf(async () => await memory.create(make('shared', 'c', 3)));
    expect(failure.code).toBe('quota_exceeded');
    expect(failure.effect).toBe('none');
    expect(failure.details).toMatchObject({ quota: 'objects_max_count', max_count: 2 });
    expect(await memory.find('shared', 'c')).toBeUndefined();
    expect(await memory.usage()).toMatchObject({ objects: 2 });
  });

  it('counts the payload JSON bytes of every live Object against objects_max_bytes, to the byte', async () => {
    const first = { content: 'é'.repeat(10) };
    const bytes = payloadByteLength(first);
    const memory = await createObjectMemory({ namespaces: ['shared'], maxObjectsBytes: bytes * 2 });
    await memory.create(make('shared', 'a', first));
    await memory.create(make('shared', 'b', first));
    expect(await memory.usage()).toEqual({ objects: 2, bytes: bytes * 2, maxObjectsCount: 100_000, maxObjectsBytes: bytes * 2 });
    const failure = await failureOf(async () => await memory.create(make('shared', 'c', '')));
    expect(failure.code).toBe('quota_exceeded');
    expect(failure.details).toMatchObject({ quota: 'objects_max_bytes' });
    expect((await memory.list('shared')).map((object) => object.name)).toEqual(['a', 'b']);
  });

  it('decides name_taken and the payload gate before the quota', async () => {
    const memory = await createObjectMemory({ namespaces: ['shared'], maxObjectsCount: 1, maxPayloadBytes: 10 });
    await memory.create(make('shared', 'a', 1));
    expect((await failureOf(async () => await memory.create(make('shared', 'a', 2)))).code).toBe('name_taken');
    expect((await failureOf(async () => await memory.create(make('shared', 'b', 'x'.repeat(20))))).code).toBe('too_large');
    expect((await failureOf(async () => await memory.create(make('shared', 'b', 1)))).code).toBe('quota_exceeded');
  });

  it('gives back the quota a dropped namespace held', async () => {
    const memory = await createObjectMemory({ maxObjectsCount: 2, maxObjectsBytes: 1000 });
    const own = await memory.openProcessNamespace(pid);
    await memory.create(make(own, 'a', 'x'.repeat(400)));
    await memory.create(make(own, 'b', 'x'.repeat(400)));
    expect((await failureOf(async () => await memory.create(make(own, 'c', 1)))).code).toBe('quota_exceeded');
    expect(await memory.dropNamespace(own)).toBe(2);
    expect(await memory.usage()).toMatchObject({ objects: 0, bytes: 0 });
    const again = await memory.openProcessNamespace(pid);
    await memory.create(make(again, 'a', 'x'.repeat(400)));
    await memory.create(make(again, 'b', 'x'.repeat(400)));
  });
});

describe('dropNamespace', () => {
  it('removes the namespace, its Objects, their oids and names, and the process view', async () => {
    const memory = await createObjectMemory({ namespaces: ['shared'] });
    const own = await memory.openProcessNamespace(pid);
    const mine = await memory.create(make(own, 'notes', 'hi'));
    const kept = await memory.create(make('shared', 'notes', 'kept'));
    await memory.view(pid).attach(mine.oid);
    expect(await memory.dropNamespace(own)).toBe(1);
    expect(await memory.hasNamespace(own)).toBe(false);
    expect(await memory.listNamespaces()).toEqual(['shared']);
    expect(await memory.getByOid(mine.oid)).toBeUndefined();
    expect((await failureOf(async () => await memory.find(own, 'notes'))).code).toBe('namespace_not_found');
    expect((await failureOf(async () => await memory.create(make(own, 'notes', 'x')))).code).toBe('namespace_not_found');
    expect(await memory.view(pid).list()).toEqual([]);
    expect(await memory.get('shared', 'notes')).toBe(kept);
  });

  it('drops nothing for a namespace that does not exist, and refuses a malformed one', async () => {
    const memory = await createObjectMemory({ namespaces: ['shared'] });
    expect(await memory.dropNamespace('other')).toBe(0);
    expect(await memory.dropNamespace(processNamespace('pid_ffffffffffffffff'))).toBe(0);
    expect((await failureOf(async () => await memory.dropNamespace(' shared'))).code).toBe('invalid_namespace');
    expect(await memory.listNamespaces()).toEqual(['shared']);
  });

  it('leaves nothing behind after 10,000 process namespaces opened, used and dropped', async () => {
    const memory = await createObjectMemory({ namespaces: ['shared'] });
    for (let index = 0; index < 10_000; index++) {
      const id = `pid_${index.toString(16).padStart(16, '0')}`;
      const own = await memory.openProcessNamespace(id);
      const object = await memory.create({ ...make(own, 'scratch', { content: 'x'.repeat(100) }), createdBy: id });
      await memory.view(id).attach(object.oid);
      await memory.dropNamespace(own);
    }
    expect(await memory.listNamespaces()).toEqual(['shared']);
    expect(await memory.usage()).toMatchObject({ objects: 0, bytes: 0 });
  });
});
