import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createObjectMemory } from '../src/index.js';
import { failureOf, pid, useScratchDirectory } from './support.js';

const scratch = useScratchDirectory('libos-checkpoint-');

async function populated() {
  const memory = await createObjectMemory({ namespaces: ['shared', 'team/notes'] });
  const own = await memory.openProcessNamespace(pid);
  await memory.create({ namespace: own, name: 'mine', type: 'plan', payload: { content: 'step 1', list: [1, 'two', null] }, createdBy: pid });
  await memory.create({ namespace: 'shared', name: 'secret doc', type: 'evidence', payload: 'text 😀 é', label: 'secret', createdBy: pid });
  await memory.create({ namespace: 'team/notes', name: 'n', type: 'summary', payload: 42, label: 'public', createdBy: 'pid_other' });
  return { memory, own };
}

describe('checkpoint and restore', () => {
  it('brings back the chosen namespaces with the same oids, names, types, labels and creation data', async () => {
    const { memory, own } = await populated();
    const file = join(scratch.path, 'memory.sqlite');
    expect(await memory.checkpoint(file, { namespaces: ['shared', own] })).toEqual({ namespaces: [own, 'shared'].sort(), objects: 2 });

    const restored = await createObjectMemory({ restore: file });
    expect(await restored.listNamespaces()).toEqual([own, 'shared'].sort());
    expect(await restored.list('shared')).toEqual(await memory.list('shared'));
    expect(await restored.list(own)).toEqual(await memory.list(own));
    expect(await restored.hasNamespace('team/notes')).toBe(false);
    const object = await restored.get('shared', 'secret doc');
    expect(Object.isFrozen(object)).toBe(true);
    expect(await restored.getByOid(object.oid)).toBe(object);
    expect(readdirSync(scratch.path)).toEqual(['memory.sqlite']);
  });

  it('captures every namespace when none are named, empty ones included', async () => {
    const { memory } = await populated();
    await memory.declareNamespace('empty');
    const file = join(scratch.path, 'all.sqlite');
    expect((await memory.checkpoint(file)).objects).toBe(3);
    const restored = await createObjectMemory();
    expect((await restored.restore(file)).namespaces).toEqual(await memory.listNamespaces());
    expect(await restored.list('empty')).toEqual([]);
    expect((await restored.list('team/notes'))[0]?.payload).toBe(42);
  });

  it('replaces an older image and keeps the restored memory immutable and unique', async () => {
    const { memory } = await populated();
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file, { namespaces: ['shared'] });
    await memory.create({ namespace: 'shared', name: 'later', type: 'artifact', payload: 1, createdBy: pid });
    await memory.checkpoint(file, { namespaces: ['shared'] });
    const restored = await createObjectMemory({ restore: file });
    expect((await restored.list('shared')).map((object) => object.name)).toEqual(['secret doc', 'later']);
    expect(
      (await failureOf(async () => await restored.create({ namespace: 'shared', name: 'later', type: 'artifact', payload: 2, createdBy: pid }))).code,
    ).toBe('name_taken');
  });

  it('refuses a restore that would collide with a live name, changing nothing', async () => {
    const { memory } = await populated();
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file, { namespaces: ['shared'] });
    const target = await createObjectMemory({ namespaces: ['shared'] });
    await target.create({ namespace: 'shared', name: 'secret doc', type: 'artifact', payload: 'mine', createdBy: pid });
    expect((await failureOf(async () => await target.restore(file))).code).toBe('name_taken');
    expect(await target.list('shared')).toHaveLength(1);
    expect((await failureOf(async () => await memory.restore(file))).code).toBe('name_taken');
  });

  it('without a checkpoint nothing persists: a new memory is empty and names are free', async () => {
    const { memory } = await populated();
    const fresh = await createObjectMemory({ namespaces: ['shared'] });
    expect(await fresh.list('shared')).toEqual([]);
    expect((await fresh.create({ namespace: 'shared', name: 'secret doc', type: 'artifact', payload: 1, createdBy: pid })).oid).not.toBe(
      (await memory.get('shared', 'secret doc')).oid,
    );
  });

  it('refuses to checkpoint an unknown namespace and writes nothing', async () => {
    const { memory } = await populated();
    const file = join(scratch.path, 'memory.sqlite');
    expect((await failureOf(async () => await memory.checkpoint(file, { namespaces: ['nope'] }))).code).toBe('namespace_not_found');
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

  it.each(cases)('refuses %s with invalid_arguments and a clear message', async (_, make, message) => {
    const file = join(scratch.path, 'bad.sqlite');
    make(file);
    const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(message);
    expect(failure.message).not.toContain(scratch.path);
  });

  it('refuses a checkpoint whose rows were tampered with', async () => {
    const { memory } = await populated();
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file);
    const database = new Database(file);
    database.prepare("UPDATE objects SET type = 'file' WHERE name = 'mine'").run();
    database.close();
    const failure = await failureOf(async () => await createObjectMemory({ restore: file }));
    expect(failure.code).toBe('invalid_arguments');
    expect(failure.message).toMatch(/object row \d+ has an unknown type/);
  });

  it('refuses a checkpoint cut short', async () => {
    const { memory } = await populated();
    for (let index = 0; index < 300; index++) {
      await memory.create({ namespace: 'shared', name: `filler ${index}`, type: 'artifact', payload: 'y'.repeat(200), createdBy: pid });
    }
    const file = join(scratch.path, 'memory.sqlite');
    await memory.checkpoint(file);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect((await failureOf(async () => await createObjectMemory({ restore: file }))).code).toBe('invalid_arguments');
  });

  it('reports a missing file as not_found', async () => {
    expect((await failureOf(async () => await createObjectMemory({ restore: join(scratch.path, 'missing.sqlite') }))).code).toBe('not_found');
  });
});
