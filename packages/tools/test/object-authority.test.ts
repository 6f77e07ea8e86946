import type { FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime, type RuntimeOptions } from '../src/index.js';
import { checkedCall, createTestbed } from './support/harness.js';

const IMPORT = 'create_object_from_file';
const EXPORT = 'write_object_to_file';

// Records provider calls, to prove a refusal came before any probe.
function recordingRuntime(options: Omit<RuntimeOptions, 'provider'>) {
  const { provider, fixtures } = createMemfsTestbed();
  const probes: string[] = [];
  const wrapped = { ...provider } as Record<string, unknown>;
  for (const method of ['stat', 'readFile', 'writeFile'] as const) {
    wrapped[method] = (...args: unknown[]) => {
      probes.push(method);
      return (provider[method] as (...inner: unknown[]) => unknown)(...args);
    };
  }
  return { fixtures, probes, runtime: createRuntime({ provider: wrapped as unknown as FileSystemProviderV1, ...options }) };
}

describe('namespaces a process may use', () => {
  const config = {
    namespaces: [
      { name: 'shared', rights: ['read', 'write'] as ('read' | 'write')[] },
      { name: 'inbox', rights: ['write'] as ('read' | 'write')[] },
      { name: 'library', rights: ['read'] as ('read' | 'write')[] },
    ],
  };

  it('uses its own namespace by default and declared ones by their rights', async () => {
    const bed = await createTestbed({ config });
    await bed.fixtures.writeFile('a.txt', 'a');
    expect(await bed.ok(IMPORT, { name: 'a', path: 'a.txt' })).toMatchObject({ namespace: bed.process.namespace });
    expect(await bed.ok(IMPORT, { name: 'a', path: 'a.txt', namespace: 'shared' })).toMatchObject({ namespace: 'shared' });
    expect(await bed.ok(IMPORT, { name: 'a', path: 'a.txt', namespace: 'inbox' })).toMatchObject({ namespace: 'inbox' });
    expect(await bed.fail(IMPORT, { name: 'a', path: 'a.txt', namespace: 'library' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await bed.fail(EXPORT, { name: 'a', path: 'o.txt', namespace: 'inbox' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await bed.ok(EXPORT, { name: 'a', path: 'o.txt', namespace: 'shared' })).toMatchObject({ namespace: 'shared' });
  });

  it("cannot reach another process's namespace or an undeclared one: namespace_not_found", async () => {
    const bed = await createTestbed({ config });
    await bed.fixtures.writeFile('a.txt', 'a');
    const other = bed.runtime.spawn();
    expect(await checkedCall(bed.runtime, other, IMPORT, { name: 'mine', path: 'a.txt' })).toMatchObject({ ok: true });
    for (const namespace of [other.namespace, 'process:pid_0000000000000000', 'elsewhere', 'shared/sub']) {
      expect(await bed.fail(IMPORT, { name: 'x', path: 'a.txt', namespace }), namespace).toMatchObject({ code: 'namespace_not_found' });
      expect(await bed.fail(EXPORT, { name: 'mine', path: 'o.txt', namespace }), namespace).toMatchObject({ code: 'namespace_not_found' });
    }
    expect(await bed.fixtures.kindOf('o.txt')).toBe('missing');
    // The other process still reads its own.
    expect(await checkedCall(bed.runtime, other, EXPORT, { name: 'mine', path: 'o.txt' })).toMatchObject({ ok: true });
  });

  it('refuses a namespace before probing the file', async () => {
    const { runtime, fixtures, probes } = recordingRuntime({ config });
    await fixtures.writeFile('a.txt', 'a');
    const bed = await runtime;
    const process = bed.spawn();
    await checkedCall(bed, process, IMPORT, { name: 'a', path: 'a.txt', namespace: 'library' });
    await checkedCall(bed, process, IMPORT, { name: 'a', path: 'a.txt', namespace: 'nowhere' });
    expect(probes).toEqual([]);
  });
});

describe('path authority', () => {
  it('needs read on the source and write on the target, denied the same whether or not they exist', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: 'in', tree: true, rights: ['read'] },
          { path: 'out', tree: true, rights: ['write'] },
        ],
      },
    });
    await bed.fixtures.writeFile('in/a.txt', 'a');
    await bed.fixtures.writeFile('out/b.txt', 'b');
    await bed.fixtures.writeFile('other.txt', 'c');
    expect(await bed.fail(IMPORT, { name: 'b', path: 'out/b.txt' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await bed.fail(IMPORT, { name: 'b', path: 'out/none.txt' })).toMatchObject({ code: 'denied' });
    await bed.ok(IMPORT, { name: 'a', path: 'in/a.txt' });
    expect(await bed.fail(EXPORT, { name: 'a', path: 'in/copy.txt' })).toMatchObject({ code: 'denied', effect: 'none' });
    expect(await bed.fail(EXPORT, { name: 'a', path: 'other.txt' })).toMatchObject({ code: 'denied' });
    expect(await bed.ok(EXPORT, { name: 'a', path: 'out/copy.txt' })).toMatchObject({ created: true });
  });

  it('spends a use only once the probe starts', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read'] },
          { path: 'once.txt', rights: ['write'], uses: 1 },
        ],
        labels: [{ path: 'secret.txt', label: 'secret' }],
      },
    });
    await bed.fixtures.writeFile('secret.txt', 's');
    await bed.fixtures.writeFile('plain.txt', 'p');
    await bed.ok(IMPORT, { name: 's', path: 'secret.txt' });
    await bed.ok(IMPORT, { name: 'p', path: 'plain.txt' });
    // egress_denied is a denial: it spends nothing, so the one use is still there afterwards.
    expect(await bed.fail(EXPORT, { name: 's', path: 'once.txt' })).toMatchObject({ code: 'egress_denied' });
    await bed.ok(EXPORT, { name: 'p', path: 'once.txt' });
    expect(await bed.fail(EXPORT, { name: 'p', path: 'once.txt' })).toMatchObject({ code: 'denied' });
  });
});

describe('labels and sinks', () => {
  const config = {
    labels: [
      { path: 'secrets', tree: true, label: 'secret' as const },
      { path: 'secrets/shareable.txt', label: 'confidential' as const },
      { path: 'public.txt', label: 'public' as const },
      { path: 'safe', tree: true, label: 'secret' as const },
      { path: 'reports', tree: true, label: 'confidential' as const },
    ],
    sinks: [
      { path: 'vault', tree: true, max_label: 'secret' as const },
      { path: 'safe', tree: true, max_label: 'secret' as const },
      { path: 'reports', tree: true, max_label: 'confidential' as const },
      { path: 'www', tree: true, max_label: 'public' as const },
    ],
  };

  async function labelled() {
    const bed = await createTestbed({ config });
    await bed.fixtures.writeFile('secrets/key.txt', 'key');
    await bed.fixtures.writeFile('secrets/shareable.txt', 'share');
    await bed.fixtures.writeFile('public.txt', 'hello');
    await bed.fixtures.writeFile('notes.txt', 'notes');
    for (const [name, path] of [
      ['key', 'secrets/key.txt'],
      ['shareable', 'secrets/shareable.txt'],
      ['public', 'public.txt'],
      ['notes', 'notes.txt'],
    ]) {
      await bed.ok(IMPORT, { name, path });
    }
    return bed;
  }

  it("carries the file's label onto the Object", async () => {
    const bed = await labelled();
    const labelOf = async (name: string) => (await bed.runtime.objects.get(bed.process.namespace, name)).label;
    expect(await Promise.all([labelOf('key'), labelOf('shareable'), labelOf('public'), labelOf('notes')])).toEqual([
      'secret',
      'confidential',
      'public',
      'normal',
    ]);
  });

  const matrix: [string, string, boolean][] = [
    // A sink clears a secret, but the path carries no label of its own: the bytes would land normal.
    ['key', 'vault/key.txt', false],
    ['key', 'safe/key.txt', true],
    ['key', 'reports/key.txt', false],
    ['key', 'plain.txt', false],
    ['key', 'www/key.txt', false],
    ['shareable', 'vault/s.txt', false],
    ['shareable', 'safe/s.txt', true],
    ['shareable', 'reports/s.txt', true],
    ['shareable', 'plain.txt', false],
    ['notes', 'plain.txt', true],
    ['notes', 'reports/n.txt', true],
    ['notes', 'www/n.txt', false],
    ['public', 'www/index.txt', true],
    ['public', 'plain.txt', true],
  ];

  it.each(matrix)('%s -> %s allowed: %s', async (name, path, allowed) => {
    const bed = await labelled();
    if (allowed) {
      expect(await bed.ok(EXPORT, { name, path })).toMatchObject({ path, created: true });
      return;
    }
    const failure = await bed.fail(EXPORT, { name, path });
    expect(failure).toMatchObject({ code: 'egress_denied', effect: 'none' });
    expect(failure.message).toContain(path);
    // A denial names the right and the path only: no label or clearance leaks out.
    expect(failure.details).toEqual({ right: 'write', path });
    expect(failure.message).not.toMatch(/secret|confidential|public|normal/);
    expect(await bed.fixtures.kindOf(path)).toBe('missing');
  });

  it('lets no chain of calls lower a label: export, then move, re-import and export again', async () => {
    const bed = await labelled();
    // The finding: a secret written to a secret-cleared sink whose path carries no label.
    expect(await bed.fail(EXPORT, { name: 'key', path: 'vault/key.txt' })).toMatchObject({ code: 'egress_denied', effect: 'none' });
    expect(await bed.fixtures.kindOf('vault/key.txt')).toBe('missing');
    // Where the bytes land labelled secret, the export succeeds, and every way on stays secret.
    expect(await bed.ok(EXPORT, { name: 'key', path: 'safe/key.txt' })).toMatchObject({ created: true });
    for (const to of ['plain.txt', 'vault/key.txt', 'reports/key.txt', 'www/key.txt']) {
      expect(await bed.fail('move_file', { from: 'safe/key.txt', to }), to).toMatchObject({ code: 'egress_denied' });
    }
    expect(await bed.ok(IMPORT, { name: 'again', path: 'safe/key.txt' })).toMatchObject({ name: 'again' });
    expect((await bed.runtime.objects.get(bed.process.namespace, 'again')).label).toBe('secret');
    for (const path of ['plain.txt', 'vault/again.txt', 'reports/again.txt']) {
      expect(await bed.fail(EXPORT, { name: 'again', path }), path).toMatchObject({ code: 'egress_denied' });
    }
    for (const path of ['plain.txt', 'vault/key.txt', 'vault/again.txt', 'reports/key.txt', 'reports/again.txt', 'www/key.txt']) {
      expect(await bed.fixtures.kindOf(path), path).toBe('missing');
    }
  });

  it('refuses egress before probing the target, whatever is there', async () => {
    const { runtime, fixtures, probes } = recordingRuntime({ config });
    await fixtures.writeFile('secrets/key.txt', 'key');
    await fixtures.makeDirectory('www/dir');
    const bed = await runtime;
    const process = bed.spawn();
    expect(await checkedCall(bed, process, IMPORT, { name: 'key', path: 'secrets/key.txt' })).toMatchObject({ ok: true });
    probes.length = 0;
    for (const path of ['www/dir', 'www/missing.txt', 'elsewhere.txt']) {
      expect(await checkedCall(bed, process, EXPORT, { name: 'key', path })).toMatchObject({ ok: false, error: { code: 'egress_denied' } });
    }
    expect(probes).toEqual([]);
  });
});
