import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeValue, detailsDrift, expectLibosError } from '@libos/conformance-harness';
import { OBJECT_STORE_ERROR_DETAILS, type MemoryObject, type ObjectStoreV1 } from '@libos/core';
import { createObjectMemory, newObjectId, payloadByteLength } from '@libos/object-memory';
import type { StoreCaseContext, StoreUnderTest } from './store-case.js';

/** Quotas far above anything a case creates, for cases that are not about quotas. */
export const UNREACHED_QUOTA = { maxObjectsCount: 1_000_000_000, maxObjectsBytes: Number.MAX_SAFE_INTEGER };

/** Builds the context of one case; `cleanups` collects what the kit itself must undo afterwards. */
export function createStoreCaseContext(underTest: StoreUnderTest, onCleanup: (cleanup: () => Promise<void>) => void): StoreCaseContext {
  const { store } = underTest;
  return {
    store,
    capabilities: store.capabilities,
    async another() {
      if (underTest.openAnother === undefined) throw new Error('The factory has no openAnother.');
      const other = await underTest.openAnother();
      onCleanup(() => other.close());
      return other;
    },
    object(namespace, name, fields = {}) {
      return Object.freeze({
        oid: newObjectId(),
        namespace,
        name,
        type: 'artifact',
        payload: { content: `${namespace}/${name}` },
        label: 'normal',
        created_at: new Date().toISOString(),
        created_by: 'pid_00000000000000aa',
        ...fields,
      } as MemoryObject);
    },
    async create(object, quota = {}, target: ObjectStoreV1 = store) {
      await target.create(object, { payloadBytes: payloadByteLength(object.payload), quota: { ...UNREACHED_QUOTA, ...quota } });
    },
    expectError: (action, codes, effect = 'none') =>
      expectLibosError(action, codes, effect, (error) => {
        const drift = detailsDrift(error, OBJECT_STORE_ERROR_DETAILS, 'OBJECT_STORE_ERROR_DETAILS');
        return drift === undefined ? undefined : `The ${error.code} error's details ${drift} (details: ${describeValue(error.details)}).`;
      }),
    memory(options = {}) {
      return createObjectMemory({ ...options, store });
    },
    async temporaryDirectory() {
      const directory = await mkdtemp(join(tmpdir(), 'libos-store-kit-'));
      onCleanup(() => rm(directory, { recursive: true, force: true }));
      return directory;
    },
  };
}
