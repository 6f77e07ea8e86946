import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createObjectMemory } from '../src/index.js';
import { failureOf, pid, useScratchDirectory } from './support.js';

const scratch = useScratchDirectory('libos-checkpoint-');

function populated() {
  const memory = createObjectMemory({ namespaces: ['shared', 'team/notes'] });
  const own = memory.openProcessNamespace(pid);
  memory.create({ namespace: own, name: 'mine', type: 'plan', payload: { content: 'step 1', list: [1, 'two', null] }, createdBy: pid });
  memory.create({ namespace: 'shared', name: 'secret doc', type: 'evidence', payload: 'text 😀 é', label: 'secret', createdBy: pid });
  memory.create({ namespace: 'team/notes', name: 'n', type: 'summary', payload: 42, label: 'public', createdBy: 'pid_other' });
  return { memory, own };
}

describe('checkpoint and restore', () => {
  it('brings back the chosen namespaces with the same oids, names, types, labels and creation data', () => {
    const { memory, own } = populated();
    const file = join(scratch.path, 'memory.sqlite');
    expect(memory.checkpoint(file, { namespaces: ['shared', own] })).toEqual({ namespaces: [own, 'shared'].sort(), objects: 2 });

    const restored = createObjectMemory({ restore: file });
    expect(restored.listNamespaces()).toEqual([own, 'shared'].sort());
    expect(restored.list('shared')).toEqual(memory.list('shared'));
    expect(restored.list(own)).toEqual(memory.list(own));
    expect(restored.hasNamespace('team/notes')).toBe(false);
    const object = restored.get('shared', 'secret doc');
    expect(Object.isFrozen(object)).toBe(true);
    expect(restored.getByOid(object.oid)).toBe(object);
    expect(readdirSync(scratch.path)).toEqual(['memory.sqlite']);
  });

  it('captures every namespace when none are named, empty ones included', () => {
    const { memory } = populated();
    memory.declareNamespace('empty');
    const file = join(scratch.path, 'all.sqlite');
    expect(memory.checkpoint(file).objects).toBe(3);
    const restored = createObjectMemory();
    expect(restored.restore(file).namespaces).toEqual(memory.listNamespaces());
    expect(restored.list('empty')).toEqual([]);
    expect(restored.list('team/notes')[0]?.payload).toBe(42);
  });

  it('replaces an older image and keeps the restored memory immutable and unique', () => {
    const { memory } = populated();
    const file = join(scratch.path, 'memory.sqlite');
    memory.checkpoint(file, { namespaces: ['shared'] });
    memory.create({ namespace: 'shared', name: 'later', type: 'artifact', payload: 1, createdBy: pid });
    memory.checkpoint(file, { namespaces: ['shared'] });
    const restored = createObjectMemory({ restore: file });
    expect(restored.list('shared').map((object) => object.name)).toEqual(['secret doc', 'later']);
    expect(failureOf(() => restored.create({ namespace: 'shared', name: 'later', type: 'artifact', payload: 2, createdBy: pid })).code).toBe(
      'name_taken',
    );
  });

  it('refuses a restore that would collide with a live name, changing nothing', () => {
    const { memory } = populated();
    const file = join(scratch.path, 'memory.sqlite');
    memory.checkpoint(file, { namespaces: ['shared'] });
    const target = createObjectMemory({ namespaces: ['shared'] });
    target.create({ namespace: 'shared', name: 'secret doc', type: 'artifact', payload: 'mine', createdBy: pid });
    expect(failureOf(() => target.restore(file)).code).toBe('name_taken');
    expect(target.list('shared')).toHaveLength(1);
    expect(failureOf(() => memory.restore(file)).code).toBe('name_taken');
  });

  it('without a checkpoint nothing persists: a new memory is empty and names are free', () => {
    const { memory } = populated();
    const fresh = createObjectMemory({ namespaces: ['shared'] });
    expect(fresh.list('shared')).toEqual([]);
    expect(fresh.create({ namespace: 'shared', name: 'secret doc', type: 'artifact', payload: 1, createdBy: pid }).oid).not.toBe(
      memory.get('shared', 'secret doc').oid,
    );
  });

  it('refuses to checkpoint an unknown namespace and writes nothing', () => {
    const { memory } = populated();
    const file = join(scratch.path, 'memory.sqlite');
    expect(failureOf(() => memory.checkpoint(file, { namespaces: ['nope'] })).code).toBe('namespace_not_found');
    expect(readdirSync(scratch.path)).toEqual([]);
  });
});

describe('malformed checkpoint files', () => {
  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['random bytes', (file) => writeFileSync(file, 'this is not a database at all, just text'.repeat(200)), /malformed/],
    ['an empty file', (file) => writeFileSync(file, ''), /not an Object Memory checkpoint/],
    [
      'another SQLite database',
      (file) => {
        const database = new Database(file);
        database.exec('CREATE TABLE t (x)');
        database.close();
      },
      /not an Object Memory checkpoint/,
    ],
  ];

  it.each(cases)('refuses %s with invalid_arguments and a clear message', (_, make, message) => {
    const file = join(scratch.path, 'bad.sqlite');
    make(file);
    const failure = failureOf(() => createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(message);
    expect(failure.message).not.toContain(scratch.path);
  });

  it('refuses a checkpoint whose rows were tampered with', () => {
    const { memory } = populated();
    const file = join(scratch.path, 'memory.sqlite');
    memory.checkpoint(file);
    const database = new Database(file);
    database.prepare("UPDATE objects SET type = 'file' WHERE name = 'mine'").run();
    database.close();
    const failure = failureOf(() => createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(/object row \d+ has an unknown type/);
  });

  it('refuses a checkpoint cut short', () => {
    const { memory } = populated();
    for (let index = 0; index < 300; index++) {
      memory.create({ namespace: 'shared', name: `filler ${index}`, type: 'artifact', payload: 'y'.repeat(200), createdBy: pid });
    }
    const file = join(scratch.path, 'memory.sqlite');
    memory.checkpoint(file);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(failureOf(() => createObjectMemory({ restore: file })).code).toBe('invalid_arguments');
  });

  it('reports a missing file as not_found', () => {
    expect(failureOf(() => createObjectMemory({ restore: join(scratch.path, 'missing.sqlite') })).code).toBe('not_found');
  });
});
