import { DEFAULT_BOUNDS, LABELS, LibosError, objectStoreErrors, type Label } from '@libos/core';
import { checkpointMemory, restoreMemory, type CheckpointSummary } from './memory-checkpoint.js';
import type { MemoryObject } from '@libos/core';
import { adaptObjectStore } from './adapt-object-store.js';
import { createMemoryObjectStore } from './memory-object-store.js';
import { createMemoryView, type MemoryView } from './memory-view.js';
import { newObjectId } from './object-id.js';
import { PROCESS_NAMESPACE_PREFIX, assertValidNamespace, normalizeObjectName, processNamespace } from './object-names.js';
import type { ObjectStoreV1 } from '@libos/core';
import { isObjectType, type ObjectType } from '@libos/core';
import { freezeJsonCopy, payloadByteLength } from './payload.js';
import { startLeaseRenewal } from './lease-renewal.js';

/** Options of `createObjectMemory`. */
export interface ObjectMemoryOptions {
  /** Where Objects live; default a new in-memory store (`createMemoryObjectStore()`). */
  readonly store?: ObjectStoreV1;
  /** The payload gate (UTF-8 bytes of the payload's compact JSON); default `bounds.object_payload_max_bytes`. */
  readonly maxPayloadBytes?: number;
  /** Quota on the UTF-8 bytes of the payload JSON of all live Objects; default `bounds.objects_max_bytes`. */
  readonly maxObjectsBytes?: number;
  /** Quota on the number of live Objects; default `bounds.objects_max_count`. */
  readonly maxObjectsCount?: number;
  /** Namespaces that exist from the start besides process namespaces (the config's `namespaces`). */
  readonly namespaces?: readonly string[];
  /** A checkpoint file to restore into the new memory. */
  readonly restore?: string;
}

/** What `create` needs; `name` is trimmed, `label` defaults to `normal`. */
export interface CreateObjectInput {
  readonly namespace: string;
  readonly name: string;
  readonly type: ObjectType;
  readonly payload: unknown;
  readonly label?: Label;
  readonly createdBy: string;
}

/** What the live Objects of the memory's store take, against the quotas. */
export interface ObjectMemoryUsage {
  readonly objects: number;
  /** UTF-8 bytes of the payload JSON of all live Objects. */
  readonly bytes: number;
  readonly maxObjectsCount: number;
  readonly maxObjectsBytes: number;
}

/**
 * Namespaces and immutable Objects on an Object store. It checks everything a store must not have
 * to (names, namespaces, types, labels, plain JSON, the payload gate) and builds each Object whole;
 * the store decides names, quotas and the uses ledger atomically.
 */
export interface ObjectMemory {
  readonly store: ObjectStoreV1;
  readonly maxPayloadBytes: number;
  readonly maxObjectsBytes: number;
  readonly maxObjectsCount: number;
  /** The live Objects' count and bytes, and the quotas they are held to. */
  usage(): Promise<ObjectMemoryUsage>;
  /** Makes a namespace exist (idempotent). Rejects with `invalid_namespace`. */
  declareNamespace(namespace: string): Promise<void>;
  /** Makes a process's own `process:<pid>` namespace exist and returns its name (idempotent; renews its lease). */
  openProcessNamespace(processId: string): Promise<string>;
  hasNamespace(namespace: string): Promise<boolean>;
  /** Every existing namespace, sorted by code point. */
  listNamespaces(): Promise<string[]>;
  /**
   * Creates one Object; the store decides the name atomically, so of racing creators exactly one
   * wins. Rejects with `invalid_namespace`, `invalid_name`, `invalid_object_type`,
   * `invalid_arguments` (payload not plain JSON, unknown label), `too_large` (payload gate),
   * `namespace_not_found`, `name_taken`, or `quota_exceeded` when the Object would take the store
   * past `maxObjectsCount` or `maxObjectsBytes`.
   */
  create(input: CreateObjectInput): Promise<MemoryObject>;
  /**
   * Removes a namespace and every Object in it, freeing their names and their share of the quotas;
   * for `process:<pid>` it also forgets that process's MemoryView. Resolves to how many Objects went
   * (0 for a namespace that does not exist). Rejects with `invalid_namespace`.
   */
  dropNamespace(namespace: string): Promise<number>;
  /** The live Object of that name, if any. Rejects with `namespace_not_found`. */
  find(namespace: string, name: string): Promise<MemoryObject | undefined>;
  /** Like `find`, but rejects with `object_not_found` when there is none. */
  get(namespace: string, name: string): Promise<MemoryObject>;
  getByOid(oid: string): Promise<MemoryObject | undefined>;
  /** The live Objects of a namespace in creation order. Rejects with `namespace_not_found`. */
  list(namespace: string): Promise<MemoryObject[]>;
  /** The MemoryView of a process (made on first use). */
  view(processId: string): MemoryView;
  /** Writes the live Objects of `namespaces` (default: all) into one SQLite file (mode 0600), replacing it atomically. */
  checkpoint(file: string, options?: { readonly namespaces?: readonly string[] }): Promise<CheckpointSummary>;
  /**
   * Brings back a checkpoint's namespaces and Objects with their oids, names, types, labels and
   * creation data. Every row is checked as `create` would check it (payload gate included) and the
   * whole file must fit the quotas next to the live Objects, else `invalid_arguments` naming the first
   * bad row, or `quota_exceeded`; a refused file restores nothing. A name or oid already live fails
   * the whole restore with `name_taken`.
   */
  restore(file: string): Promise<CheckpointSummary>;
  /**
   * Stops lease renewal, drops the process namespaces this memory opened (their processes end with
   * the runtime) and closes the store. Safe to call twice.
   */
  close(): Promise<void>;
}

/** The read and list side of a memory, for a runtime to expose to its embedder. */
export type ObjectMemoryReader = Pick<ObjectMemory, 'hasNamespace' | 'listNamespaces' | 'find' | 'get' | 'getByOid' | 'list' | 'view' | 'usage'>;

/** A view of `memory` with only its read and list methods, safe to hand out. */
export function objectMemoryReader(memory: ObjectMemory): ObjectMemoryReader {
  const { hasNamespace, listNamespaces, find, get, getByOid, list, view, usage } = memory;
  return Object.freeze({ hasNamespace, listNamespaces, find, get, getByOid, list, view, usage });
}

/** Makes an Object Memory on `options.store` (default: a new in-memory store), restored from `options.restore` if given. */
export async function createObjectMemory(options: ObjectMemoryOptions = {}): Promise<ObjectMemory> {
  const store = adaptObjectStore(options.store ?? createMemoryObjectStore());
  const maxPayloadBytes = options.maxPayloadBytes ?? DEFAULT_BOUNDS.object_payload_max_bytes;
  const maxObjectsBytes = options.maxObjectsBytes ?? DEFAULT_BOUNDS.objects_max_bytes;
  const maxObjectsCount = options.maxObjectsCount ?? DEFAULT_BOUNDS.objects_max_count;
  const quota = { maxObjectsCount, maxObjectsBytes };
  const views = new Map<string, MemoryView>();
  // The process namespaces this memory opened and still owns: renewed while it runs, dropped at close.
  const opened = new Map<string, Promise<void>>();
  const renewal = startLeaseRenewal(store, () => [...opened.keys()]);
  let closing: Promise<void> | undefined;

  async function objectsExist(namespace: string): Promise<void> {
    if (!(await store.hasNamespace(namespace))) throw objectStoreErrors.namespaceNotFound(namespace);
  }

  async function find(namespace: string, name: string): Promise<MemoryObject | undefined> {
    assertValidNamespace(namespace);
    const object = await store.get(namespace, name);
    if (object === undefined) await objectsExist(namespace);
    return object;
  }

  const memory: ObjectMemory = {
    store,
    maxPayloadBytes,
    maxObjectsBytes,
    maxObjectsCount,
    async usage() {
      return { ...(await store.usage()), maxObjectsCount, maxObjectsBytes };
    },
    async declareNamespace(namespace) {
      assertValidNamespace(namespace);
      await store.declareNamespace(namespace);
    },
    async openProcessNamespace(processId) {
      const namespace = processNamespace(processId);
      assertValidNamespace(namespace);
      let ready = opened.get(namespace);
      if (ready === undefined) {
        ready = store.declareNamespace(namespace, { process: true });
        opened.set(namespace, ready);
        // A failed open is not remembered, so the next call tries again.
        ready.catch(() => opened.get(namespace) === ready && opened.delete(namespace));
      }
      await ready;
      return namespace;
    },
    hasNamespace: (namespace) => store.hasNamespace(namespace),
    listNamespaces: () => store.listNamespaces(),
    async create(input) {
      assertValidNamespace(input.namespace);
      const name = normalizeObjectName(input.name);
      if (!isObjectType(input.type)) {
        throw new LibosError('invalid_object_type', 'The Object type is not one of the allowed types.', {
          details: { object_type: String(input.type) },
        });
      }
      const label = input.label ?? 'normal';
      if (!LABELS.includes(label)) throw new LibosError('invalid_arguments', 'The label is not a known label.');
      const payload = freezeJsonCopy(input.payload);
      const payloadBytes = payloadByteLength(payload);
      if (payloadBytes > maxPayloadBytes) {
        throw new LibosError('too_large', `The payload's JSON is ${payloadBytes} bytes, over the ${maxPayloadBytes}-byte bound.`, {
          details: { payload_bytes: payloadBytes, max_bytes: maxPayloadBytes },
        });
      }
      const object: MemoryObject = Object.freeze({
        oid: newObjectId(),
        namespace: input.namespace,
        name,
        type: input.type,
        payload,
        label,
        created_at: new Date().toISOString(),
        created_by: input.createdBy,
      });
      await store.create(object, { payloadBytes, quota });
      return object;
    },
    async dropNamespace(namespace) {
      assertValidNamespace(namespace);
      if (namespace.startsWith(PROCESS_NAMESPACE_PREFIX)) views.delete(namespace.slice(PROCESS_NAMESPACE_PREFIX.length));
      opened.delete(namespace);
      return store.dropNamespace(namespace);
    },
    find,
    async get(namespace, name) {
      const object = await find(namespace, name);
      if (object === undefined) {
        throw new LibosError('object_not_found', 'No live Object has this name in the namespace.', {
          details: { namespace, name },
        });
      }
      return object;
    },
    getByOid: (oid) => store.getByOid(oid),
    async list(namespace) {
      assertValidNamespace(namespace);
      await objectsExist(namespace);
      const objects = await Promise.all((await store.listNames(namespace)).map((name) => store.get(namespace, name)));
      // A name dropped between the listing and the read is simply gone.
      return objects.filter((object): object is MemoryObject => object !== undefined);
    },
    view(processId) {
      let view = views.get(processId);
      if (view === undefined) {
        view = createMemoryView(processId, (oid) => store.getByOid(oid));
        views.set(processId, view);
      }
      return view;
    },
    checkpoint: (file, checkpointOptions = {}) => checkpointMemory(memory, file, checkpointOptions.namespaces),
    restore: (file) => restoreMemory(memory, file),
    close() {
      closing ??= (async () => {
        renewal.stop();
        const owned = [...opened.entries()];
        opened.clear();
        try {
          // An open still in flight must land before its drop, or the namespace would outlive the runtime.
          await Promise.allSettled(owned.map(([, ready]) => ready));
          await Promise.allSettled(owned.map(([namespace]) => store.dropNamespace(namespace)));
        } finally {
          await store.close();
        }
      })();
      return closing;
    },
  };

  for (const namespace of options.namespaces ?? []) await memory.declareNamespace(namespace);
  if (options.restore !== undefined) await memory.restore(options.restore);
  return memory;
}
