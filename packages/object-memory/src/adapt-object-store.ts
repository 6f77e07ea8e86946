import { LibosError, type ObjectStoreV1 } from '@libos/core';

/**
 * One adapter per Object store interface version Object Memory accepts, each turning a store of
 * that version into the interface Object Memory calls. Object Memory never branches on a version:
 * a future `v2` adds a row here (or `v1` becomes an adapter over `v2`), and nothing else changes.
 */
const adapters: Readonly<Record<string, (store: ObjectStoreV1) => ObjectStoreV1>> = {
  v1: (store) => store,
};

/** Accepts any store whose `specificationVersion` has an adapter; throws `invalid_arguments` otherwise. */
export function adaptObjectStore(store: unknown): ObjectStoreV1 {
  const version = typeof store === 'object' && store !== null ? (store as { specificationVersion?: unknown }).specificationVersion : undefined;
  const adapter = typeof version === 'string' && Object.hasOwn(adapters, version) ? adapters[version] : undefined;
  if (adapter === undefined) {
    const shown = typeof version === 'string' ? JSON.stringify(version.slice(0, 40)) : 'no specificationVersion';
    throw new LibosError('invalid_arguments', `The Object store declares ${shown}; Object Memory accepts ${Object.keys(adapters).join(', ')}.`, {
      details: { accepted: Object.keys(adapters) },
    });
  }
  return adapter(store as ObjectStoreV1);
}
