import { LibosError, type ConfigInput } from '@libos/core';
import { createMemoryObjectStore, type ObjectStoreV1 } from '@libos/object-memory';
import { createMemfsProvider } from '@libos/provider-memfs';
import { describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../src/index.js';
import { recordCalls } from './support/record-calls.js';

/** A store that records which of its methods the runtime calls. */
function recording(store: ObjectStoreV1 = createMemoryObjectStore()) {
  const { wrapped, calls } = recordCalls(store);
  return { store: wrapped, calls };
}

const usesConfig = (policy_id?: string): ConfigInput => ({
  grants: [
    { path: '.', tree: true, rights: ['read'] },
    { path: 'notes.txt', rights: ['write'], uses: 3 },
  ],
  ...(policy_id === undefined ? {} : { policy_id }),
});

describe('createRuntime({ objectStore })', () => {
  it("keeps Objects in the given store, and closing the runtime drops its processes' namespaces and closes the store", async () => {
    const { store, calls } = recording();
    const runtime = await createRuntime({
      provider: createMemfsProvider(),
      objectStore: store,
      config: { namespaces: [{ name: 'shared', rights: ['read', 'write'] }] },
    });
    const process = runtime.spawn();
    await process.call('write_text_file', { path: 'a.txt', content: 'hello' });
    const created = await process.call('create_object_from_file', { name: 'doc', path: 'a.txt', namespace: 'shared' });
    expect(created.ok).toBe(true);
    await process.call('create_object_from_file', { name: 'mine', path: 'a.txt' });
    expect((await store.get('shared', 'doc'))?.payload).toMatchObject({ content: 'hello' });
    expect(await store.listNames(process.namespace)).toEqual(['mine']);
    expect(calls).toContain('create');
    await runtime.close();
    expect(calls.slice(-2)).toEqual(['dropNamespace', 'close']);
    await expect(store.hasNamespace('shared')).rejects.toMatchObject({ code: 'provider_failure' });
  });

  it('refuses a store that does not implement ObjectStoreV1', async () => {
    const failure = await createRuntime({ provider: createMemfsProvider(), objectStore: { name: 'old' } as unknown as ObjectStoreV1 }).catch(
      (error: unknown) => error,
    );
    expect(LibosError.is(failure, 'invalid_arguments')).toBe(true);
  });

  it('lets two runtimes on one store with one policy_id spend one count of uses: 3 of 30 racing calls succeed', async () => {
    const store = createMemoryObjectStore();
    const runtimes = await Promise.all(
      [0, 1].map(() => createRuntime({ provider: createMemfsProvider(), objectStore: store, config: usesConfig('fleet') })),
    );
    const processes = runtimes.map((runtime) => runtime.spawn());
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, index) => processes[index % 2]!.call('write_text_file', { path: 'notes.txt', content: `${index}` })),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(3);
    expect(new Set(outcomes.filter((outcome) => !outcome.ok).map((outcome) => (outcome.ok ? '' : outcome.error.code)))).toEqual(new Set(['denied']));
    await runtimes[1]!.close();
  });

  it('counts uses per runtime without a policy_id, even on one store', async () => {
    const store = createMemoryObjectStore();
    const runtimes = await Promise.all(
      [0, 1].map(() => createRuntime({ provider: createMemfsProvider(), objectStore: store, config: usesConfig() })),
    );
    const processes = runtimes.map((runtime) => runtime.spawn());
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, index) => processes[index % 2]!.call('write_text_file', { path: 'notes.txt', content: 'x' })),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(6);
  });

  it('gives a shared use back when the call is refused after authorization (egress_denied spends nothing)', async () => {
    const store = createMemoryObjectStore();
    const runtime = await createRuntime({
      provider: createMemfsProvider(),
      objectStore: store,
      config: {
        policy_id: 'fleet',
        grants: [
          { path: '.', tree: true, rights: ['read'] },
          { path: 'out', tree: true, rights: ['write'], uses: 1 },
        ],
        labels: [
          { path: 'secret.txt', label: 'secret' },
          { path: 'out/vault', tree: true, label: 'secret' },
        ],
        sinks: [{ path: 'out/vault', tree: true, max_label: 'secret' }],
      },
    });
    await runtime.provider.writeFile('secret.txt' as never, new TextEncoder().encode('s3cret'), { overwrite: true });
    const process = runtime.spawn();
    expect((await process.call('create_object_from_file', { name: 'key', path: 'secret.txt' })).ok).toBe(true);
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await process.call('write_object_to_file', { name: 'key', path: 'out/public.txt' });
      expect(refused.ok ? 'ok' : refused.error.code).toBe('egress_denied');
    }
    const written = await process.call('write_object_to_file', { name: 'key', path: 'out/vault/key.txt' });
    expect(written.ok).toBe(true);
    const spent = await process.call('write_object_to_file', { name: 'key', path: 'out/vault/again.txt' });
    expect(spent.ok ? 'ok' : spent.error.code).toBe('denied');
    await runtime.close();
  });

  it("renews the leases of its live process namespaces at a third of the store's leaseMs", async () => {
    vi.useFakeTimers();
    try {
      const inner = createMemoryObjectStore();
      const renewed: string[][] = [];
      const store: ObjectStoreV1 = {
        ...inner,
        capabilities: { shared: true, durable: true, leaseMs: 900 },
        renewLeases: async (namespaces) => void renewed.push([...namespaces]),
      };
      const runtime = await createRuntime({ provider: createMemfsProvider(), objectStore: store });
      const process = runtime.spawn();
      await vi.advanceTimersByTimeAsync(301);
      expect(renewed).toEqual([[process.namespace]]);
      await vi.advanceTimersByTimeAsync(300);
      expect(renewed).toHaveLength(2);
      await runtime.close();
      await vi.advanceTimersByTimeAsync(3000);
      expect(renewed).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
