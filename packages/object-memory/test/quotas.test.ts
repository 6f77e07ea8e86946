import { describe, expect, it } from 'vitest';
import { createObjectMemory, payloadByteLength, processNamespace } from '../src/index.js';
import { failureOf, pid } from './support.js';

const make = (namespace: string, name: string, payload: unknown) => ({ namespace, name, type: 'artifact' as const, payload, createdBy: pid });

describe('Object Memory quotas', () => {
  it('refuses the Object past objects_max_count with quota_exceeded, storing nothing', () => {
    const memory = createObjectMemory({ namespaces: ['shared'], maxObjectsCount: 2 });
    memory.create(make('shared', 'a', 1));
    memory.create(make('shared', 'b', 2));
    const failure = failureOf(() => memory.create(make('shared', 'c', 3)));
    expect(failure.code).toBe('quota_exceeded');
    expect(failure.effect).toBe('none');
    expect(failure.details).toMatchObject({ quota: 'objects_max_count', max_count: 2 });
    expect(memory.find('shared', 'c')).toBeUndefined();
    expect(memory.usage()).toMatchObject({ objects: 2 });
  });

  it('counts the payload JSON bytes of every live Object against objects_max_bytes, to the byte', () => {
    const first = { content: 'é'.repeat(10) };
    const bytes = payloadByteLength(first);
    const memory = createObjectMemory({ namespaces: ['shared'], maxObjectsBytes: bytes * 2 });
    memory.create(make('shared', 'a', first));
    memory.create(make('shared', 'b', first));
    expect(memory.usage()).toEqual({ objects: 2, bytes: bytes * 2, maxObjectsCount: 100_000, maxObjectsBytes: bytes * 2 });
    const failure = failureOf(() => memory.create(make('shared', 'c', '')));
    expect(failure.code).toBe('quota_exceeded');
    expect(failure.details).toMatchObject({ quota: 'objects_max_bytes' });
    expect(memory.list('shared').map((object) => object.name)).toEqual(['a', 'b']);
  });

  it('decides name_taken and the payload gate before the quota', () => {
    const memory = createObjectMemory({ namespaces: ['shared'], maxObjectsCount: 1, maxPayloadBytes: 10 });
    memory.create(make('shared', 'a', 1));
    expect(failureOf(() => memory.create(make('shared', 'a', 2))).code).toBe('name_taken');
    expect(failureOf(() => memory.create(make('shared', 'b', 'x'.repeat(20)))).code).toBe('too_large');
    expect(failureOf(() => memory.create(make('shared', 'b', 1))).code).toBe('quota_exceeded');
  });

  it('gives back the quota a dropped namespace held', () => {
    const memory = createObjectMemory({ maxObjectsCount: 2, maxObjectsBytes: 1000 });
    const own = memory.openProcessNamespace(pid);
    memory.create(make(own, 'a', 'x'.repeat(400)));
    memory.create(make(own, 'b', 'x'.repeat(400)));
    expect(failureOf(() => memory.create(make(own, 'c', 1))).code).toBe('quota_exceeded');
    expect(memory.dropNamespace(own)).toBe(2);
    expect(memory.usage()).toMatchObject({ objects: 0, bytes: 0 });
    const again = memory.openProcessNamespace(pid);
    memory.create(make(again, 'a', 'x'.repeat(400)));
    memory.create(make(again, 'b', 'x'.repeat(400)));
  });
});

describe('dropNamespace', () => {
  it('removes the namespace, its Objects, their oids and names, and the process view', () => {
    const memory = createObjectMemory({ namespaces: ['shared'] });
    const own = memory.openProcessNamespace(pid);
    const mine = memory.create(make(own, 'notes', 'hi'));
    const kept = memory.create(make('shared', 'notes', 'kept'));
    memory.view(pid).attach(mine.oid);
    expect(memory.dropNamespace(own)).toBe(1);
    expect(memory.hasNamespace(own)).toBe(false);
    expect(memory.listNamespaces()).toEqual(['shared']);
    expect(memory.getByOid(mine.oid)).toBeUndefined();
    expect(failureOf(() => memory.find(own, 'notes')).code).toBe('namespace_not_found');
    expect(failureOf(() => memory.create(make(own, 'notes', 'x'))).code).toBe('namespace_not_found');
    expect(memory.view(pid).list()).toEqual([]);
    expect(memory.get('shared', 'notes')).toBe(kept);
  });

  it('drops nothing for a namespace that does not exist, and refuses a malformed one', () => {
    const memory = createObjectMemory({ namespaces: ['shared'] });
    expect(memory.dropNamespace('other')).toBe(0);
    expect(memory.dropNamespace(processNamespace('pid_ffffffffffffffff'))).toBe(0);
    expect(failureOf(() => memory.dropNamespace(' shared')).code).toBe('invalid_namespace');
    expect(memory.listNamespaces()).toEqual(['shared']);
  });

  it('leaves nothing behind after 10,000 process namespaces opened, used and dropped', () => {
    const memory = createObjectMemory({ namespaces: ['shared'] });
    for (let index = 0; index < 10_000; index++) {
      const id = `pid_${index.toString(16).padStart(16, '0')}`;
      const own = memory.openProcessNamespace(id);
      const object = memory.create({ ...make(own, 'scratch', { content: 'x'.repeat(100) }), createdBy: id });
      memory.view(id).attach(object.oid);
      memory.dropNamespace(own);
    }
    expect(memory.listNamespaces()).toEqual(['shared']);
    expect(memory.usage()).toMatchObject({ objects: 0, bytes: 0 });
  });
});
