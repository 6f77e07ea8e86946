import { LibosError, compareCodePoints } from '@libos/core';
import type { MemoryObject } from './memory-object.js';
import type { ObjectStoreV1 } from './object-store.js';
import { quotaExceeded } from './quota-error.js';

/**
 * The default Object store: everything in this runtime's memory, gone when it stops (CONTRACT.md
 * section 7). Each method does its whole work between two awaits, so every check and its change are
 * one atomic step for any number of concurrent callers in this process. Objects arrive frozen from
 * Object Memory and are kept and returned as they are.
 */
export function createMemoryObjectStore(): ObjectStoreV1 {
  const namespaces = new Map<string, Map<string, MemoryObject>>();
  const byOid = new Map<string, MemoryObject>();
  // Each live Object's payload bytes, so a drop gives back exactly what its creation took.
  const sizes = new Map<string, number>();
  const spent = new Map<string, number>();
  let liveBytes = 0;
  let closed = false;

  function open(): void {
    if (closed) throw new LibosError('provider_failure', 'The Object store has been closed.', { effect: 'none' });
  }

  return {
    specificationVersion: 'v1',
    name: 'memory',
    capabilities: { shared: false, durable: false },
    async declareNamespace(namespace) {
      open();
      if (!namespaces.has(namespace)) namespaces.set(namespace, new Map());
    },
    async hasNamespace(namespace) {
      open();
      return namespaces.has(namespace);
    },
    async listNamespaces() {
      open();
      return [...namespaces.keys()].sort(compareCodePoints);
    },
    async dropNamespace(namespace) {
      open();
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
    async renewLeases() {
      open();
    },
    async create(object, options) {
      open();
      const objects = namespaces.get(object.namespace);
      if (objects === undefined) {
        throw new LibosError('namespace_not_found', 'The namespace does not exist.', { effect: 'none', details: { namespace: object.namespace } });
      }
      if (objects.has(object.name)) {
        throw new LibosError('name_taken', 'A live Object already has this name in the namespace.', {
          effect: 'none',
          details: { namespace: object.namespace, name: object.name },
        });
      }
      const { maxObjectsCount, maxObjectsBytes } = options.quota;
      if (byOid.size + 1 > maxObjectsCount) throw quotaExceeded('objects_max_count', { objects: byOid.size, bytes: liveBytes }, options);
      if (liveBytes + options.payloadBytes > maxObjectsBytes) {
        throw quotaExceeded('objects_max_bytes', { objects: byOid.size, bytes: liveBytes }, options);
      }
      if (byOid.has(object.oid)) throw new LibosError('provider_failure', 'The oid is already taken.', { effect: 'none' });
      objects.set(object.name, object);
      byOid.set(object.oid, object);
      sizes.set(object.oid, options.payloadBytes);
      liveBytes += options.payloadBytes;
    },
    async get(namespace, name) {
      open();
      return namespaces.get(namespace)?.get(name);
    },
    async getByOid(oid) {
      open();
      return byOid.get(oid);
    },
    async listNames(namespace) {
      open();
      // A Map iterates in insertion order, which is creation order here.
      return [...(namespaces.get(namespace)?.keys() ?? [])];
    },
    async usage() {
      open();
      return { objects: byOid.size, bytes: liveBytes };
    },
    async spendUses(key, amount, limit) {
      open();
      const count = spent.get(key) ?? 0;
      if (count + amount > limit) return false;
      spent.set(key, count + amount);
      return true;
    },
    async refundUses(key, amount) {
      open();
      const count = spent.get(key) ?? 0;
      spent.set(key, Math.max(0, count - amount));
    },
    async spentUses(key) {
      open();
      return spent.get(key) ?? 0;
    },
    async close() {
      closed = true;
    },
  };
}
