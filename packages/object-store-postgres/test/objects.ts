import { randomBytes } from 'node:crypto';
import type { MemoryObject, ObjectStoreCreateOptions } from '@libos/core';

/** A quota no test reaches unless it means to. */
export const ROOMY = { maxObjectsCount: 100_000, maxObjectsBytes: 268_435_456 } as const;

/** An Object as Object Memory would build it, and the create options that go with it. */
export function objectFor(
  namespace: string,
  name: string,
  payload: MemoryObject['payload'],
  quota: ObjectStoreCreateOptions['quota'] = ROOMY,
): [MemoryObject, ObjectStoreCreateOptions] {
  const object: MemoryObject = {
    oid: `obj_${randomBytes(8).toString('hex')}`,
    namespace,
    name,
    type: 'artifact',
    payload,
    label: 'normal',
    created_at: new Date().toISOString(),
    created_by: 'pid_00000000000000aa',
  };
  return [object, { payloadBytes: Buffer.byteLength(JSON.stringify(payload), 'utf8'), quota }];
}
