import { DEFAULT_BOUNDS, LABELS, LibosError, type Label } from '@libos/core';
import { readCheckpointFile, writeCheckpointFile } from './checkpoint-file.js';
import type { JsonValue, MemoryObject } from './memory-object.js';
import { createMemoryView, type MemoryView } from './memory-view.js';
import { newObjectId } from './object-id.js';
import { PROCESS_NAMESPACE_PREFIX, assertValidNamespace, normalizeObjectName, processNamespace } from './object-names.js';
import { isObjectType, type ObjectType } from './object-types.js';
import { freezeJsonCopy, payloadByteLength } from './payload.js';

/** Options of `createObjectMemory`. */
export interface ObjectMemoryOptions {
  /** The payload gate (UTF-8 bytes of the payload's compact JSON); default `bounds.object_payload_max_bytes`. */
  readonly maxPayloadBytes?: number;
  /** Namespaces that exist from the start besides process namespaces (the config's `namespaces`). */
  readonly namespaces?: readonly string[];
  /** Quota on the UTF-8 bytes of the payload JSON of all live Objects; default `bounds.objects_max_bytes`. */
  readonly maxObjectsBytes?: number;
  /** Quota on the number of live Objects; default `bounds.objects_max_count`. */
  readonly maxObjectsCount?: number;
  /** A checkpoint file to restore into the new memory. */
  readonly restore?: string;
}

/** What the live Objects of a memory take, against its quotas. */
export interface ObjectMemoryUsage {
  readonly objects: number;
  /** UTF-8 bytes of the payload JSON of all live Objects. */
  readonly bytes: number;
  readonly maxObjectsCount: number;
  readonly maxObjectsBytes: number;
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

/** What a checkpoint wrote or a restore brought back. */
export interface CheckpointSummary {
  readonly namespaces: readonly string[];
  readonly objects: number;
}

/** Namespaces and immutable Objects, held in memory; nothing persists without a checkpoint. */
export interface ObjectMemory {
  readonly maxPayloadBytes: number;
  /** The live Objects' count and bytes, and the quotas they are held to. */
  usage(): ObjectMemoryUsage;
  /** Makes a namespace exist (idempotent). Throws `invalid_namespace`. */
  declareNamespace(namespace: string): void;
  /** Makes a process's own `process:<pid>` namespace exist and returns its name (idempotent). */
  openProcessNamespace(processId: string): string;
  hasNamespace(namespace: string): boolean;
  /** Every existing namespace, sorted. */
  listNamespaces(): string[];
  /**
   * Creates one Object, atomically: the name check and the insert happen in one synchronous step,
   * so of racing creators exactly one wins. Throws `invalid_namespace`, `namespace_not_found`,
   * `invalid_name`, `invalid_object_type`, `too_large` (payload gate), `name_taken`, or
   * `quota_exceeded` when the Object would take the memory past `maxObjectsCount` or `maxObjectsBytes`.
   */
  create(input: CreateObjectInput): MemoryObject;
  /**
   * Removes a namespace and every Object in it, freeing their names and their share of the quotas;
   * for `process:<pid>` it also forgets that process's MemoryView. Returns how many Objects went.
   * Dropping a namespace that does not exist drops nothing and returns 0. Throws `invalid_namespace`.
   */
  dropNamespace(namespace: string): number;
  /** The live Object of that name, if any. Throws `namespace_not_found`. */
  find(namespace: string, name: string): MemoryObject | undefined;
  /** Like `find`, but throws `object_not_found` when there is none. */
  get(namespace: string, name: string): MemoryObject;
  getByOid(oid: string): MemoryObject | undefined;
  /** The live Objects of a namespace in creation order. Throws `namespace_not_found`. */
  list(namespace: string): MemoryObject[];
  /** The MemoryView of a process (made on first use). */
  view(processId: string): MemoryView;
  /** Writes the live Objects of `namespaces` (default: all) into one SQLite file, replacing it atomically. */
  checkpoint(file: string, options?: { readonly namespaces?: readonly string[] }): CheckpointSummary;
  /**
   * Brings back a checkpoint's namespaces and Objects with their oids, names, types, labels and
   * creation data. Every row is checked as `create` would check it (payload gate included) and the
   * whole file must fit the quotas next to the live Objects, else `invalid_arguments` naming the first
   * bad row, or `quota_exceeded`. All or nothing: a name or oid already live fails the whole restore
   * with `name_taken`, and a refused file restores nothing.
   */
  restore(file: string): CheckpointSummary;
}

/** The read and list side of a memory, for a runtime to expose to its embedder. */
export type ObjectMemoryReader = Pick<ObjectMemory, 'hasNamespace' | 'listNamespaces' | 'find' | 'get' | 'getByOid' | 'list' | 'view' | 'usage'>;

/** A view of `memory` with only its read and list methods, safe to hand out. */
export function objectMemoryReader(memory: ObjectMemory): ObjectMemoryReader {
  const { hasNamespace, listNamespaces, find, get, getByOid, list, view, usage } = memory;
  return Object.freeze({ hasNamespace, listNamespaces, find, get, getByOid, list, view, usage });
}

/** Makes an empty Object Memory, or one restored from `options.restore`. */
export function createObjectMemory(options: ObjectMemoryOptions = {}): ObjectMemory {
  const maxPayloadBytes = options.maxPayloadBytes ?? DEFAULT_BOUNDS.object_payload_max_bytes;
  const maxObjectsBytes = options.maxObjectsBytes ?? DEFAULT_BOUNDS.objects_max_bytes;
  const maxObjectsCount = options.maxObjectsCount ?? DEFAULT_BOUNDS.objects_max_count;
  const namespaces = new Map<string, Map<string, MemoryObject>>();
  const byOid = new Map<string, MemoryObject>();
  // The payload bytes of each live Object, so a drop gives back exactly what its creation took.
  const sizes = new Map<string, number>();
  let liveBytes = 0;
  const views = new Map<string, MemoryView>();

  function declareNamespace(namespace: string): void {
    assertValidNamespace(namespace);
    if (!namespaces.has(namespace)) namespaces.set(namespace, new Map());
  }

  function objectsOf(namespace: string): Map<string, MemoryObject> {
    assertValidNamespace(namespace);
    const objects = namespaces.get(namespace);
    if (objects === undefined) {
      throw new LibosError('namespace_not_found', 'The namespace does not exist.', { details: { namespace } });
    }
    return objects;
  }

  function insert(object: MemoryObject, bytes: number): void {
    objectsOf(object.namespace).set(object.name, object);
    byOid.set(object.oid, object);
    sizes.set(object.oid, bytes);
    liveBytes += bytes;
  }

  function assertRoom(objects: number, bytes: number): void {
    if (byOid.size + objects > maxObjectsCount) {
      throw new LibosError('quota_exceeded', `Object Memory holds ${byOid.size} Objects; the quota is ${maxObjectsCount}.`, {
        effect: 'none',
        details: { quota: 'objects_max_count', live_objects: byOid.size, max_count: maxObjectsCount },
      });
    }
    if (liveBytes + bytes > maxObjectsBytes) {
      throw new LibosError(
        'quota_exceeded',
        `Object Memory holds ${liveBytes} payload bytes; ${bytes} more would pass the ${maxObjectsBytes}-byte quota.`,
        { effect: 'none', details: { quota: 'objects_max_bytes', live_bytes: liveBytes, payload_bytes: bytes, max_bytes: maxObjectsBytes } },
      );
    }
  }

  const memory: ObjectMemory = {
    maxPayloadBytes,
    usage: () => ({ objects: byOid.size, bytes: liveBytes, maxObjectsCount, maxObjectsBytes }),
    declareNamespace,
    openProcessNamespace(processId) {
      const namespace = processNamespace(processId);
      declareNamespace(namespace);
      return namespace;
    },
    hasNamespace: (namespace) => namespaces.has(namespace),
    listNamespaces: () => [...namespaces.keys()].sort(),
    create(input) {
      const objects = objectsOf(input.namespace);
      const name = normalizeObjectName(input.name);
      if (!isObjectType(input.type)) {
        throw new LibosError('invalid_object_type', 'The Object type is not one of the allowed types.', {
          details: { object_type: String(input.type) },
        });
      }
      const label = input.label ?? 'normal';
      if (!LABELS.includes(label)) throw new LibosError('invalid_arguments', 'The label is not a known label.');
      const payload = freezeJsonCopy(input.payload);
      const bytes = payloadByteLength(payload);
      if (bytes > maxPayloadBytes) {
        throw new LibosError('too_large', `The payload's JSON is ${bytes} bytes, over the ${maxPayloadBytes}-byte bound.`, {
          details: { payload_bytes: bytes, max_bytes: maxPayloadBytes },
        });
      }
      // From here to the insert nothing awaits, so the check and the insert cannot interleave with another creator.
      if (objects.has(name)) throw nameTaken(input.namespace, name);
      assertRoom(1, bytes);
      const object: MemoryObject = Object.freeze({
        oid: freshOid(byOid),
        namespace: input.namespace,
        name,
        type: input.type,
        payload,
        label,
        created_at: new Date().toISOString(),
        created_by: input.createdBy,
      });
      insert(object, bytes);
      return object;
    },
    dropNamespace(namespace) {
      assertValidNamespace(namespace);
      const objects = namespaces.get(namespace);
      if (namespace.startsWith(PROCESS_NAMESPACE_PREFIX)) views.delete(namespace.slice(PROCESS_NAMESPACE_PREFIX.length));
      if (objects === undefined) return 0;
      namespaces.delete(namespace);
      for (const object of objects.values()) {
        byOid.delete(object.oid);
        liveBytes -= sizes.get(object.oid) ?? 0;
        sizes.delete(object.oid);
      }
      return objects.size;
    },
    find: (namespace, name) => objectsOf(namespace).get(name),
    get(namespace, name) {
      const object = objectsOf(namespace).get(name);
      if (object === undefined) {
        throw new LibosError('object_not_found', 'No live Object has this name in the namespace.', {
          details: { namespace, name },
        });
      }
      return object;
    },
    getByOid: (oid) => byOid.get(oid),
    list: (namespace) => [...objectsOf(namespace).values()],
    view(processId) {
      let view = views.get(processId);
      if (view === undefined) {
        view = createMemoryView(processId, (oid) => byOid.get(oid));
        views.set(processId, view);
      }
      return view;
    },
    checkpoint(file, checkpointOptions = {}) {
      const chosen = [...new Set(checkpointOptions.namespaces ?? namespaces.keys())].sort();
      const objects = chosen.flatMap((namespace) => [...objectsOf(namespace).values()]);
      writeCheckpointFile(file, chosen, objects);
      return { namespaces: chosen, objects: objects.length };
    },
    restore(file) {
      const image = readCheckpointFile(file, {
        maxPayloadBytes,
        maxObjectsCount: maxObjectsCount - byOid.size,
        maxObjectsBytes: maxObjectsBytes - liveBytes,
      });
      for (const object of image.objects) {
        if (byOid.has(object.oid) || namespaces.get(object.namespace)?.has(object.name) === true) {
          throw nameTaken(object.namespace, object.name);
        }
      }
      for (const namespace of image.namespaces) declareNamespace(namespace);
      image.objects.forEach((object, index) => insert(object, image.payloadBytes[index]!));
      return { namespaces: image.namespaces, objects: image.objects.length };
    },
  };

  for (const namespace of options.namespaces ?? []) declareNamespace(namespace);
  if (options.restore !== undefined) memory.restore(options.restore);
  return memory;
}

function freshOid(taken: ReadonlyMap<string, MemoryObject>): string {
  // 64 random bits make a clash practically impossible; the loop makes it impossible.
  let oid = newObjectId();
  while (taken.has(oid)) oid = newObjectId();
  return oid;
}

function nameTaken(namespace: string, name: string): LibosError {
  return new LibosError('name_taken', 'A live Object already has this name in the namespace.', {
    details: { namespace, name },
  });
}
