import { LibosError, compareCodePoints } from '@libos/core';
import { createMemoryObjectStore, type MemoryObject, type ObjectStoreV1 } from '@libos/object-memory';
import type { StoreFactory } from '../src/index.js';

/** A store that breaks one promise of ObjectStoreV1, and the cases that must catch it. */
export interface BrokenStore {
  readonly name: string;
  readonly factory: StoreFactory;
  readonly fails: readonly string[];
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The in-memory store with some methods replaced. */
function patched(patch: (store: ObjectStoreV1) => Partial<ObjectStoreV1>): StoreFactory {
  return () => {
    const store = createMemoryObjectStore();
    return { store: { ...store, ...patch(store) } };
  };
}

/** A store that keeps its own map, so broken ones can decide names their own way. */
function mapStore(options: { check: 'before-await' | 'fold-case' | 'upsert' }): StoreFactory {
  return () => {
    const inner = createMemoryObjectStore();
    const names = new Map<string, MemoryObject>();
    const key = (namespace: string, name: string) =>
      options.check === 'fold-case' ? `${namespace}\n${name.toLowerCase()}` : `${namespace}\n${name}`;
    return {
      store: {
        ...inner,
        async create(object, createOptions) {
          if (!(await inner.hasNamespace(object.namespace))) throw new LibosError('namespace_not_found', 'No namespace.', { effect: 'none' });
          const taken = names.has(key(object.namespace, object.name));
          if (options.check === 'before-await') await tick();
          if (taken && options.check !== 'upsert')
            throw new LibosError('name_taken', 'Taken.', { effect: 'none', details: { namespace: object.namespace, name: object.name } });
          names.set(key(object.namespace, object.name), object);
          await inner.create(Object.freeze({ ...object, name: `${object.name}\n${object.oid}` }), createOptions).catch(() => undefined);
        },
        async get(namespace, name) {
          return names.get(key(namespace, name));
        },
        async listNames(namespace) {
          return [...names.values()].filter((object) => object.namespace === namespace).map((object) => object.name);
        },
      },
    };
  };
}

export const brokenStores: readonly BrokenStore[] = [
  {
    name: 'checks the name, then awaits, then inserts',
    factory: mapStore({ check: 'before-await' }),
    fails: ['races > of 40 concurrent creators of one name exactly one wins'],
  },
  {
    name: 'overwrites a taken name (an upsert)',
    factory: mapStore({ check: 'upsert' }),
    fails: ['objects > a taken name is name_taken: never overwritten, never upserted'],
  },
  {
    name: 'folds the case of names',
    factory: mapStore({ check: 'fold-case' }),
    fails: ['namespaces > namespace and Object names are compared exactly (no case folding, no normalization)'],
  },
  {
    name: 'ignores the quotas',
    factory: patched((store) => ({
      create: (object, options) => store.create(object, { ...options, quota: { maxObjectsCount: Infinity, maxObjectsBytes: Infinity } }),
    })),
    fails: [
      'quotas > one Object past the count quota',
      'quotas > one byte past the quota',
      'races > concurrent creators cannot pass the count quota together',
      'object memory on the store > quota_exceeded comes through Object Memory with effect none',
    ],
  },
  {
    name: 'reads the quota usage, awaits, then inserts',
    factory: patched((store) => ({
      async create(object, options) {
        const usage = await store.usage();
        await tick();
        // Decides on the stale usage, then inserts whatever the store holds by now.
        if (usage.objects + 1 > options.quota.maxObjectsCount)
          throw new LibosError('quota_exceeded', 'Over.', { effect: 'none', details: { quota: 'objects_max_count' } });
        await store.create(object, { ...options, quota: { maxObjectsCount: Infinity, maxObjectsBytes: options.quota.maxObjectsBytes } });
      },
    })),
    fails: ['races > concurrent creators cannot pass the count quota together'],
  },
  {
    name: 'forgets to give back the bytes of a dropped namespace',
    factory: () => {
      const store = createMemoryObjectStore();
      let leaked = { objects: 0, bytes: 0 };
      return {
        store: {
          ...store,
          async dropNamespace(namespace) {
            const before = await store.usage();
            const dropped = await store.dropNamespace(namespace);
            const after = await store.usage();
            leaked = { objects: leaked.objects, bytes: leaked.bytes + before.bytes - after.bytes };
            return dropped;
          },
          async usage() {
            const usage = await store.usage();
            return { objects: usage.objects, bytes: usage.bytes + leaked.bytes };
          },
        },
      };
    },
    fails: ['quotas > usage counts creates and gives back exactly what a drop removes'],
  },
  {
    name: 'reads the ledger, awaits, then writes',
    factory: () => {
      const store = createMemoryObjectStore();
      const counts = new Map<string, number>();
      return {
        store: {
          ...store,
          async spendUses(key, amount, limit) {
            const count = counts.get(key) ?? 0;
            await tick();
            if (count + amount > limit) return false;
            counts.set(key, count + amount);
            return true;
          },
          async spentUses(key) {
            return counts.get(key) ?? 0;
          },
        },
      };
    },
    fails: ['uses ledger > of 30 concurrent spenders with a limit of 3 exactly 3 are granted'],
  },
  {
    name: 'lets a refund go below zero',
    factory: () => {
      const store = createMemoryObjectStore();
      const counts = new Map<string, number>();
      return {
        store: {
          ...store,
          async spendUses(key, amount, limit) {
            const count = counts.get(key) ?? 0;
            if (count + amount > limit) return false;
            counts.set(key, count + amount);
            return true;
          },
          async refundUses(key, amount) {
            counts.set(key, (counts.get(key) ?? 0) - amount);
          },
          async spentUses(key) {
            return counts.get(key) ?? 0;
          },
        },
      };
    },
    fails: ['uses ledger > a refund gives uses back, never below 0'],
  },
  {
    name: 'sorts namespaces by UTF-16 units',
    factory: patched((store) => ({ listNamespaces: async () => (await store.listNamespaces()).sort() })),
    fails: ['namespaces > listNamespaces is sorted by code point, each name once'],
  },
  {
    name: 'lists names sorted instead of in creation order',
    factory: patched((store) => ({ listNames: async (namespace) => (await store.listNames(namespace)).sort(compareCodePoints) })),
    fails: ["objects > listNames gives a namespace's names in creation order"],
  },
  {
    name: 'keeps payloads like jsonb (keys sorted, NUL refused)',
    factory: patched((store) => ({
      async create(object, options) {
        const text = JSON.stringify(object.payload);
        if (text.includes('\\u0000')) throw new LibosError('provider_failure', 'unsupported Unicode escape sequence', { effect: 'none' });
        await store.create(Object.freeze({ ...object, payload: sortKeys(object.payload) }), options);
      },
    })),
    fails: [
      'payload texts > NUL survives exactly',
      'payload texts > a payload with keys not in sorted order survives exactly',
      'objects > get and getByOid return the Object as created, every field exactly',
    ],
  },
  {
    name: 'drops lone surrogates and noncharacters (stores UTF-8 text, not JSON escapes)',
    factory: patched((store) => ({
      create: (object, options) =>
        store.create(
          Object.freeze({ ...object, payload: JSON.parse(JSON.stringify(object.payload).replace(/\\ud[89a-f][0-9a-f]{2}/g, '\uFFFD')) }),
          options,
        ),
    })),
    fails: ['payload texts > lone surrogates (kept by JSON escapes) survives exactly'],
  },
  {
    name: 'hands out its own mutable records',
    factory: () => {
      const store = createMemoryObjectStore();
      const records = new Map<string, MemoryObject>();
      return {
        store: {
          ...store,
          async create(object, options) {
            await store.create(object, options);
            records.set(`${object.namespace}\n${object.name}`, JSON.parse(JSON.stringify(object)) as MemoryObject);
          },
          async get(namespace, name) {
            return records.get(`${namespace}\n${name}`);
          },
          async getByOid(oid) {
            return [...records.values()].find((record) => record.oid === oid);
          },
        },
      };
    },
    fails: ['objects > changing a returned Object cannot change what the store holds'],
  },
  {
    name: 'keeps Objects of a dropped namespace reachable by oid',
    factory: () => {
      const store = createMemoryObjectStore();
      const everything = new Map<string, MemoryObject>();
      return {
        store: {
          ...store,
          async create(object, options) {
            await store.create(object, options);
            everything.set(object.oid, object);
          },
          getByOid: async (oid) => everything.get(oid),
        },
      };
    },
    fails: ['namespaces > dropNamespace removes the namespace and its Objects, frees their names and touches nothing else'],
  },
  {
    name: 'truncates large payloads',
    factory: patched((store) => ({
      create: (object, options) =>
        store.create(
          Object.freeze({
            ...object,
            payload: JSON.parse(
              JSON.stringify(object.payload)
                .slice(0, 1_000_000)
                .replace(/[^"]*$/, '"}'),
            ) as never,
          }),
          options,
        ),
    })),
    fails: ['payload texts > a 16 MiB text survives exactly'],
  },
];

function sortKeys(value: unknown): never {
  if (Array.isArray(value)) return value.map(sortKeys) as never;
  if (typeof value !== 'object' || value === null) return value as never;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    Object.defineProperty(sorted, key, { value: sortKeys((value as Record<string, unknown>)[key]), enumerable: true });
  return sorted as never;
}
