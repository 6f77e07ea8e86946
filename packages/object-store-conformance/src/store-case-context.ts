import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CODES, LibosError, type ErrorCode } from '@libos/core';
import { createObjectMemory, newObjectId, payloadByteLength, type MemoryObject, type ObjectStoreV1 } from '@libos/object-memory';
import { expect } from 'vitest';
import type { StoreCaseContext, StoreUnderTest } from './store-case.js';

/** Quotas far above anything a case creates, for cases that are not about quotas. */
export const UNREACHED_QUOTA = { maxObjectsCount: 1_000_000_000, maxObjectsBytes: Number.MAX_SAFE_INTEGER };

/** Builds the context of one case; `cleanups` collects what the kit itself must undo afterwards. */
export function createStoreCaseContext(underTest: StoreUnderTest, cleanups: Array<() => Promise<void>>): StoreCaseContext {
  const { store } = underTest;
  return {
    store,
    capabilities: store.capabilities,
    async another() {
      if (underTest.openAnother === undefined) throw new Error('The factory has no openAnother.');
      const other = await underTest.openAnother();
      cleanups.push(() => other.close());
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
    async expectError(action, codes, effect = 'none') {
      let failure: unknown;
      try {
        await action;
      } catch (error) {
        failure = error;
      }
      const allowed: readonly ErrorCode[] = typeof codes === 'string' ? [codes] : codes;
      if (!LibosError.is(failure)) {
        throw new Error(`Expected a LibosError (${allowed.join(' or ')}), got ${failure === undefined ? 'success' : String(failure)}.`);
      }
      expect(ERROR_CODES).toContain(failure.code);
      expect(allowed, `code (message: ${failure.message})`).toContain(failure.code);
      if (effect !== 'any') expect(failure.effect, `effect of ${failure.code}`).toBe(effect);
      return failure;
    },
    memory(options = {}) {
      return createObjectMemory({ ...options, store });
    },
    async temporaryDirectory() {
      const directory = await mkdtemp(join(tmpdir(), 'libos-store-kit-'));
      cleanups.push(() => rm(directory, { recursive: true, force: true }));
      return directory;
    },
  };
}
