import { LibosError, compareCodePoints, objectStoreErrors } from '@libos/core';
import { readCheckpointFile, writeCheckpointFile } from './checkpoint-file.js';
import type { ObjectMemory } from './create-object-memory.js';

/** What a checkpoint wrote or a restore brought back. */
export interface CheckpointSummary {
  readonly namespaces: readonly string[];
  readonly objects: number;
}

/**
 * Writes the live Objects of `namespaces` (default: every namespace of the store) into one file.
 * Rejects with `namespace_not_found` for a namespace that does not exist, before writing anything.
 */
export async function checkpointMemory(memory: ObjectMemory, file: string, namespaces?: readonly string[]): Promise<CheckpointSummary> {
  const chosen = [...new Set(namespaces ?? (await memory.listNamespaces()))].sort(compareCodePoints);
  const objects = [];
  for (const namespace of chosen) objects.push(...(await memory.list(namespace)));
  writeCheckpointFile(file, chosen, objects);
  return { namespaces: chosen, objects: objects.length };
}

/**
 * Restores a checkpoint into the memory's store: the file is read and checked whole first (rows,
 * payload gate, room under the quotas), then every name and oid is looked up, and only then is
 * anything written. A store shared with other writers can still take a name in between; then the
 * restore stops with that failure and `effect: "unknown"`, saying how far it got.
 */
export async function restoreMemory(memory: ObjectMemory, file: string): Promise<CheckpointSummary> {
  const { store } = memory;
  const usage = await memory.usage();
  const image = readCheckpointFile(file, {
    maxPayloadBytes: memory.maxPayloadBytes,
    maxObjectsCount: memory.maxObjectsCount - usage.objects,
    maxObjectsBytes: memory.maxObjectsBytes - usage.bytes,
  });
  for (const object of image.objects) {
    if ((await store.getByOid(object.oid)) !== undefined || (await store.get(object.namespace, object.name)) !== undefined) {
      throw objectStoreErrors.nameTaken(object.namespace, object.name);
    }
  }
  let restored = 0;
  try {
    for (const namespace of image.namespaces) await store.declareNamespace(namespace);
    const quota = { maxObjectsCount: memory.maxObjectsCount, maxObjectsBytes: memory.maxObjectsBytes };
    for (const [index, object] of image.objects.entries()) {
      await store.create(object, { payloadBytes: image.payloadBytes[index]!, quota });
      restored += 1;
    }
  } catch (error) {
    const failure = LibosError.is(error)
      ? error
      : new LibosError('provider_failure', 'The Object store failed during the restore.', { cause: error });
    throw new LibosError(failure.code, `The restore stopped after ${restored} of ${image.objects.length} Objects: ${failure.message}`, {
      effect: 'unknown',
      details: { ...failure.details, restored },
      cause: error,
    });
  }
  return { namespaces: image.namespaces, objects: image.objects.length };
}
