import { checkStoreSignal, compareCodePoints, objectStoreErrors } from '@libos/core';
import type { MemoryObject, ObjectStoreV1, StoreCallOptions } from '@libos/core';

const NAME = 'memory';

/**
 * The default Object store: everything in this runtime's memory, gone when it stops (docs/objects.md).
 * Each method does its whole work between two awaits, so every check and its change are one atomic
 * step for any number of concurrent callers in this process, and a signal is only checked on entry
 * (nothing here waits). Objects arrive frozen from Object Memory and are kept and returned as they are.
 */
export function createMemoryObjectStore(): ObjectStoreV1 {
  const namespaces = new Map<string, Map<string, MemoryObject>>();
  const byOid = new Map<string, MemoryObject>();
  // Each live Object's payload bytes, so a drop gives back exactly what its creation took.
  const sizes = new Map<string, number>();
  const spent = new Map<string, number>();
  let liveBytes = 0;
  let closed = false;

  function open(options: StoreCallOptions | undefined): void {
    if (closed) throw objectStoreErrors.closed(NAME);
    checkStoreSignal(options?.signal, NAME);
  }

  return {
    specificationVersion: 'v1',
    name: NAME,
    capabilities: { shared: false, durable: false },
    async declareNamespace(namespace, options) {
      open(options);
      if (!namespaces.has(namespace)) namespaces.set(namespace, new Map());
    },
    async hasNamespace(namespace, options) {
      open(options);
      return namespaces.has(namespace);
    },
    async listNamespaces(options) {
      open(options);
      return [...namespaces.keys()].sort(compareCodePoints);
    },
    async dropNamespace(namespace, options) {
      open(options);
      const objects = namespaces.get(namespace);
      if (objects === undefined) return 0;
      namespaces.delete(namespace);
      for (const object of objects.values()) {
        byOid.delete(object.oid);
        liveBytes -= sizes.get(object.oid) ?? 0;
        sizes.delete(object.oid);
      }
      return objects.size;
    },
    async renewLeases(_namespaces, options) {
      open(options);
    },
    async create(object, options) {
      open(options);
      const objects = namespaces.get(object.namespace);
      if (objects === undefined) throw objectStoreErrors.namespaceNotFound(object.namespace);
      if (objects.has(object.name)) throw objectStoreErrors.nameTaken(object.namespace, object.name);
      const { maxObjectsCount, maxObjectsBytes } = options.quota;
      const usage = { objects: byOid.size, bytes: liveBytes };
      if (byOid.size + 1 > maxObjectsCount) throw objectStoreErrors.quotaExceeded('objects_max_count', usage, options);
      if (liveBytes + options.payloadBytes > maxObjectsBytes) throw objectStoreErrors.quotaExceeded('objects_max_bytes', usage, options);
      if (byOid.has(object.oid)) throw objectStoreErrors.oidTaken(NAME);
      objects.set(object.name, object);
      byOid.set(object.oid, object);
      sizes.set(object.oid, options.payloadBytes);
      liveBytes += options.payloadBytes;
    },
    async get(namespace, name, options) {
      open(options);
      return namespaces.get(namespace)?.get(name);
    },
    async getByOid(oid, options) {
      open(options);
      return byOid.get(oid);
    },
    async listNames(namespace, options) {
      open(options);
      // A Map iterates in insertion order, which is creation order here.
      return [...(namespaces.get(namespace)?.keys() ?? [])];
    },
    async usage(options) {
      open(options);
      return { objects: byOid.size, bytes: liveBytes };
    },
    async spendUses(key, amount, limit, options) {
      open(options);
      const count = spent.get(key) ?? 0;
      if (count + amount > limit) return false;
      spent.set(key, count + amount);
      return true;
    },
    async refundUses(key, amount, options) {
      open(options);
      const count = spent.get(key) ?? 0;
      spent.set(key, Math.max(0, count - amount));
    },
    async spentUses(key, options) {
      open(options);
      return spent.get(key) ?? 0;
    },
    async close() {
      closed = true;
    },
  };
}
