export { createObjectMemory, objectMemoryReader } from './create-object-memory.js';
export type { CreateObjectInput, ObjectMemory, ObjectMemoryOptions, ObjectMemoryReader, ObjectMemoryUsage } from './create-object-memory.js';
export type { CheckpointSummary } from './memory-checkpoint.js';
export type { JsonValue, MemoryObject } from './memory-object.js';
export { OID_PATTERN } from './memory-object.js';
export type { MemoryView } from './memory-view.js';
export type {
  DeclareNamespaceOptions,
  ObjectStoreCapabilities,
  ObjectStoreCreateOptions,
  ObjectStoreQuota,
  ObjectStoreUsage,
  ObjectStoreV1,
} from './object-store.js';
export { createMemoryObjectStore } from './memory-object-store.js';
export { quotaExceeded } from './quota-error.js';
export { newObjectId } from './object-id.js';
export { OBJECT_TYPES, isObjectType } from './object-types.js';
export type { ObjectType } from './object-types.js';
export {
  PROCESS_NAMESPACE_PREFIX,
  assertValidNamespace,
  normalizeObjectName,
  processNamespace,
} from './object-names.js';
export { freezeJsonCopy, payloadByteLength } from './payload.js';
export { longestFittingPrefix } from './longest-fitting-prefix.js';
export { CHECKPOINT_APPLICATION_ID, CHECKPOINT_FORMAT_VERSION } from './checkpoint-file.js';
