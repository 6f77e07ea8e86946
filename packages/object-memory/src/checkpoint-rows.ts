import { LABELS, LibosError, isValidNamespace, type Label } from '@libos/core';
import { OID_PATTERN, type MemoryObject } from '@libos/core';
import { isObjectType } from '@libos/core';
import { normalizeObjectName } from './object-names.js';
import { freezeJsonCopy, payloadByteLength } from './payload.js';

/** What a checkpoint holds once read and checked. */
export interface CheckpointRows {
  readonly namespaces: readonly string[];
  readonly objects: readonly MemoryObject[];
  /** The payload gate's measure of each Object, in the order of `objects`. */
  readonly payloadBytes: readonly number[];
}

/** What a restore may still take: the payload gate and the room left under the quotas. */
export interface CheckpointLimits {
  readonly maxPayloadBytes: number;
  readonly maxObjectsCount: number;
  readonly maxObjectsBytes: number;
}

/**
 * One object row as the reader selects it: `payload` is null when `payload_bytes` (the stored text's
 * UTF-8 length) is already over the payload gate, so an oversized payload is never loaded.
 */
export interface CheckpointObjectRow {
  readonly oid: unknown;
  readonly namespace: unknown;
  readonly name: unknown;
  readonly type: unknown;
  readonly label: unknown;
  readonly created_at: unknown;
  readonly created_by: unknown;
  readonly payload_bytes: unknown;
  readonly payload: unknown;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Checks every row, in file order, as strictly as creation would, so a hand-edited or foreign file
 * can never put an Object into memory that `create` would have refused. The first bad row ends the
 * read: `invalid_arguments` naming it, or `quota_exceeded` when it would pass a quota.
 */
export function decodeCheckpointRows(
  namespaceRows: readonly unknown[],
  objectRows: Iterable<CheckpointObjectRow>,
  limits: CheckpointLimits,
): CheckpointRows {
  const namespaces = namespaceRows.map((name, index) => {
    if (typeof name !== 'string' || !isValidNamespace(name)) throw bad(`namespace row ${index + 1} is not a valid namespace`);
    return name;
  });
  const known = new Set(namespaces);
  if (known.size !== namespaces.length) throw bad('a namespace is listed twice');
  // Our schema makes oids and names unique, but a forged file need not: a duplicate would leave
  // one Object reachable by oid and shadowed by name.
  const oids = new Set<string>();
  const names = new Set<string>();
  const objects: MemoryObject[] = [];
  const payloadBytes: number[] = [];
  let totalBytes = 0;
  for (const row of objectRows) {
    const number = objects.length + 1;
    if (number > limits.maxObjectsCount) throw overQuota(number, 'objects_max_count');
    const { object, bytes } = decodeObject(row, number, known, limits.maxPayloadBytes);
    const key = JSON.stringify([object.namespace, object.name]);
    if (oids.has(object.oid) || names.has(key)) throw bad(`object row ${number} repeats an oid or a name`);
    totalBytes += bytes;
    if (totalBytes > limits.maxObjectsBytes) throw overQuota(number, 'objects_max_bytes');
    oids.add(object.oid);
    names.add(key);
    objects.push(object);
    payloadBytes.push(bytes);
  }
  return { namespaces, objects, payloadBytes };
}

function decodeObject(
  row: CheckpointObjectRow,
  number: number,
  namespaces: ReadonlySet<string>,
  maxPayloadBytes: number,
): { object: MemoryObject; bytes: number } {
  const where = `object row ${number}`;
  const { oid, namespace, name, type, label, created_at, created_by, payload_bytes, payload } = row;
  if (typeof oid !== 'string' || !OID_PATTERN.test(oid)) throw bad(`${where} has an invalid oid`);
  if (typeof namespace !== 'string' || !namespaces.has(namespace)) throw bad(`${where} has an unknown namespace`);
  if (typeof name !== 'string' || !isNormalName(name)) throw bad(`${where} has an invalid name`);
  if (!isObjectType(type)) throw bad(`${where} has an unknown type`);
  if (!(LABELS as readonly unknown[]).includes(label)) throw bad(`${where} has an unknown label`);
  if (typeof created_at !== 'string' || !ISO_UTC.test(created_at) || Number.isNaN(Date.parse(created_at))) {
    throw bad(`${where} has an invalid created_at`);
  }
  if (typeof created_by !== 'string' || created_by === '') throw bad(`${where} has an invalid created_by`);
  // The writer stores the compact JSON the gate measures, so a longer stored text cannot be a payload
  // that `create` accepted; it is refused before it is ever read into memory.
  if (typeof payload_bytes !== 'number') throw bad(`${where} has no JSON payload`);
  if (payload_bytes > maxPayloadBytes) {
    throw bad(`${where} has a payload over the ${maxPayloadBytes}-byte bound`);
  }
  if (typeof payload !== 'string') throw bad(`${where} has no JSON payload`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw bad(`${where} has a payload that is not JSON`);
  }
  let frozen;
  try {
    frozen = freezeJsonCopy(parsed);
  } catch {
    throw bad(`${where} has a payload that is not plain JSON`);
  }
  const bytes = payloadByteLength(frozen);
  if (bytes > maxPayloadBytes) throw bad(`${where} has a payload over the ${maxPayloadBytes}-byte bound`);
  const object: MemoryObject = Object.freeze({
    oid,
    namespace,
    name,
    type,
    payload: frozen,
    label: label as Label,
    created_at,
    created_by,
  });
  return { object, bytes };
}

function isNormalName(name: string): boolean {
  try {
    return normalizeObjectName(name) === name;
  } catch {
    return false;
  }
}

function bad(reason: string): LibosError {
  return new LibosError('invalid_arguments', `The checkpoint file is malformed: ${reason}.`, { effect: 'none', details: { reason } });
}

function overQuota(number: number, quota: 'objects_max_count' | 'objects_max_bytes'): LibosError {
  return new LibosError(
    'quota_exceeded',
    `The checkpoint cannot be restored: object row ${number} would take Object Memory past its ${quota} quota.`,
    { effect: 'none', details: { row: number, quota } },
  );
}
