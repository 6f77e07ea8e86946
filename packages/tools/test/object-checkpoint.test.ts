import { LibosError } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

const config = {
  namespaces: [{ name: 'shared', rights: ['read', 'write'] as ('read' | 'write')[] }],
  labels: [
    { path: 'secrets', tree: true, label: 'secret' as const },
    { path: 'vault', tree: true, label: 'secret' as const },
  ],
  sinks: [{ path: 'vault', tree: true, max_label: 'secret' as const }],
};
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'libos-runtime-checkpoint-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('runtime checkpoints', () => {
  it('restores Objects into a new runtime with the same oids, names, types and labels, and never workspace files', async () => {
    const bed = await createTestbed({ config });
    const bytes = Buffer.from('Grüße 😀\n', 'utf8');
    await bed.fixtures.writeFile('secrets/plan.txt', bytes);
    await bed.fixtures.writeFile('notes.txt', 'notes');
    await bed.ok('create_object_from_file', { name: 'plan', path: 'secrets/plan.txt', namespace: 'shared', object_type: 'plan' });
    await bed.ok('create_object_from_file', { name: 'notes', path: 'notes.txt' });
    const file = join(directory, 'memory.sqlite');
    expect(await bed.runtime.checkpoint(file, { namespaces: ['shared', bed.process.namespace] })).toEqual({
      namespaces: [bed.process.namespace, 'shared'].sort(),
      objects: 2,
    });

    // A new runtime on an empty workspace: the Objects come back, the files do not.
    const { provider, fixtures } = createMemfsTestbed();
    const restored = await createRuntime({ provider, config, restore: file });
    const before = await bed.runtime.objects.get('shared', 'plan');
    const after = await restored.objects.get('shared', 'plan');
    expect(after).toEqual(before);
    expect(after).toMatchObject({ type: 'plan', label: 'secret' });
    expect(await fixtures.kindOf('secrets')).toBe('missing');
    expect(await fixtures.kindOf('notes.txt')).toBe('missing');

    const process = restored.spawn();
    const exported = await checkedCall(restored, process, 'write_object_to_file', { name: 'plan', namespace: 'shared', path: 'vault/plan.txt' });
    expect(exported).toMatchObject({ ok: true, result: { oid: before.oid } });
    expect(Buffer.from((await fixtures.readFile('vault/plan.txt'))!).equals(bytes)).toBe(true);
    // The label survived: the restored Object is still refused by an ordinary sink.
    expect(await checkedCall(restored, process, 'write_object_to_file', { name: 'plan', namespace: 'shared', path: 'plan.txt' })).toMatchObject({
      ok: false,
      error: { code: 'egress_denied' },
    });
    // Names of restored Objects are taken.
    await fixtures.writeFile('x.txt', 'x');
    expect(await checkedCall(restored, process, 'create_object_from_file', { name: 'plan', namespace: 'shared', path: 'x.txt' })).toMatchObject({
      ok: false,
      error: { code: 'name_taken' },
    });
  });

  it('keeps a restored process namespace readable through runtime.objects, but no new process can use it', async () => {
    const bed = await createTestbed({ config });
    await bed.fixtures.writeFile('a.txt', 'a');
    await bed.ok('create_object_from_file', { name: 'mine', path: 'a.txt' });
    const file = join(directory, 'memory.sqlite');
    await bed.runtime.checkpoint(file);

    const { provider } = createMemfsTestbed();
    const restored = await createRuntime({ provider, config, restore: file });
    expect((await restored.objects.list(bed.process.namespace)).map((object) => object.name)).toEqual(['mine']);
    const process = restored.spawn();
    expect(
      await checkedCall(restored, process, 'write_object_to_file', { name: 'mine', namespace: bed.process.namespace, path: 'o.txt' }),
    ).toMatchObject({ ok: false, error: { code: 'namespace_not_found' } });
  });

  it('without a checkpoint a new runtime starts empty and the names are free', async () => {
    const bed = await createTestbed({ config });
    await bed.fixtures.writeFile('a.txt', 'a');
    await bed.ok('create_object_from_file', { name: 'a', path: 'a.txt', namespace: 'shared' });
    const fresh = await createTestbed({ config });
    expect(await fresh.runtime.objects.list('shared')).toEqual([]);
    await fresh.fixtures.writeFile('a.txt', 'a');
    expect(await fresh.ok('create_object_from_file', { name: 'a', path: 'a.txt', namespace: 'shared' })).toMatchObject({ name: 'a' });
  });

  it('refuses a malformed or missing checkpoint at start with a clear error', async () => {
    const bad = join(directory, 'bad.sqlite');
    writeFileSync(bad, 'not a checkpoint '.repeat(100));
    const malformed = await createRuntime({ provider: createMemfsTestbed().provider, restore: bad }).catch((error: unknown) => error);
    expect(LibosError.is(malformed, 'invalid_arguments')).toBe(true);
    expect((malformed as Error).message).toMatch(/^The checkpoint file is malformed/);
    const missing = await createRuntime({ provider: createMemfsTestbed().provider, restore: join(directory, 'none') }).catch(
      (error: unknown) => error,
    );
    expect(LibosError.is(missing, 'not_found')).toBe(true);
  });

  it('refuses to checkpoint an unknown namespace and leaves no file', async () => {
    const bed = await createTestbed({ config });
    const failure = await bed.runtime.checkpoint(join(directory, 'x.sqlite'), { namespaces: ['nope'] }).catch((error: unknown) => error);
    expect(LibosError.is(failure, 'namespace_not_found')).toBe(true);
    expect(readdirSync(directory)).toEqual([]);
  });
});
