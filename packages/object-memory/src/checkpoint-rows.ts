import { LABELS, LibosError, isValidNamespace, type Label } from '@libos/core';
import { OID_PATTERN, type MemoryObject } from './memory-object.js';
import { isObjectType } from './object-types.js';
import { normalizeObjectName } from './object-names.js';
import { freezeJsonCopy } from './payload.js';

/** What a checkpoint holds once read and checked. */
export interface CheckpointRows {
  readonly namespaces: readonly string[];
  readonly objects: readonly MemoryObject[];
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Checks every row as strictly as creation would, so a hand-edited or foreign file can never put an
 * Object into memory that `create` would have refused. Throws `invalid_arguments` naming the row.
 */
export function decodeCheckpointRows(namespaceRows: readonly unknown[], objectRows: readonly unknown[]): CheckpointRows {
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
  const objects = objectRows.map((row, index) => {
    const object = decodeObject(row, index + 1, known);
    const key = JSON.stringify([object.namespace, object.name]);
    if (oids.has(object.oid) || names.has(key)) throw bad(`object row ${index + 1} repeats an oid or a name`);
    oids.add(object.oid);
    names.add(key);
    return object;
  });
  return { namespaces, objects };
}

function decodeObject(row: unknown, number: number, namespaces: ReadonlySet<string>): MemoryObject {
  const where = `object row ${number}`;
  if (typeof row !== 'object' || row === null) throw bad(`${where} is not a row`);
  const { oid, namespace, name, type, label, created_at, created_by, payload } = row as Record<string, unknown>;
  if (typeof oid !== 'string' || !OID_PATTERN.test(oid)) throw bad(`${where} has an invalid oid`);
  if (typeof namespace !== 'string' || !namespaces.has(namespace)) throw bad(`${where} has an unknown namespace`);
  if (typeof name !== 'string' || !isNormalName(name)) throw bad(`${where} has an invalid name`);
  if (!isObjectType(type)) throw bad(`${where} has an unknown type`);
  if (!(LABELS as readonly unknown[]).includes(label)) throw bad(`${where} has an unknown label`);
  if (typeof created_at !== 'string' || !ISO_UTC.test(created_at) || Number.isNaN(Date.parse(created_at))) {
    throw bad(`${where} has an invalid created_at`);
  }
  if (typeof created_by !== 'string' || created_by === '') throw bad(`${where} has an invalid created_by`);
  if (typeof payload !== 'string') throw bad(`${where} has no JSON payload`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw bad(`${where} has a payload that is not JSON`);
  }
  return Object.freeze({
    oid,
    namespace,
    name,
    type,
    payload: freezeJsonCopy(parsed),
    label: label as Label,
    created_at,
    created_by,
  });
}

function isNormalName(name: string): boolean {
  try {
    return normalizeObjectName(name) === name;
  } catch {
    return false;
  }
}

function bad(reason: string): LibosError {
  return new LibosError('invalid_arguments', `The checkpoint file is malformed: ${reason}.`, { details: { reason } });
}
