export { createObjectMemory, objectMemoryReader } from './create-object-memory.js';
export type { CreateObjectInput, ObjectMemory, ObjectMemoryOptions, ObjectMemoryReader, ObjectMemoryUsage } from './create-object-memory.js';
export type { CheckpointSummary } from './memory-checkpoint.js';
export type { MemoryView } from './memory-view.js';
// The store interface and the Object shape live in @libos/core beside the provider interface; they
// are re-exported here for code that imports them with Object Memory.
export { OBJECT_TYPES, OID_PATTERN, isObjectType } from '@libos/core';
export type {
  DeclareNamespaceOptions,
  JsonValue,
  MemoryObject,
  ObjectStoreCapabilities,
  ObjectStoreCreateOptions,
  ObjectStoreQuota,
  ObjectStoreUsage,
  ObjectStoreV1,
  ObjectType,
  StoreCallOptions,
} from '@libos/core';
export { adaptObjectStore } from './adapt-object-store.js';
export { createMemoryObjectStore } from './memory-object-store.js';
export { newObjectId } from './object-id.js';
export {
  PROCESS_NAMESPACE_PREFIX,
  assertValidNamespace,
  normalizeObjectName,
  processNamespace,
} from './object-names.js';
export { freezeJsonCopy, payloadByteLength } from './payload.js';
export { longestFittingPrefix } from './longest-fitting-prefix.js';
export { CHECKPOINT_APPLICATION_ID, CHECKPOINT_FORMAT_VERSION, assertCheckpointsAvailable } from './checkpoint-file.js';
