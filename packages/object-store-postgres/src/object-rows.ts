import { LABELS, objectStoreErrors, type Label } from '@libos/core';
import { OID_PATTERN, isObjectType, type MemoryObject } from '@libos/core';
import { freezeJsonCopy } from '@libos/object-memory';
import { STORE_NAME } from './database-failure.js';
import { utf8Text } from './utf8.js';

/** The columns every Object query selects, in the shape `objectFromRow` reads. */
export const OBJECT_COLUMNS = 'o.oid, n.name AS namespace, o.name, o.type, o.label, o.payload, o.created_at, o.created_by';

/** One row of those columns as node-postgres returns it (bytea as Buffer). */
export interface ObjectRow {
  readonly oid: string;
  readonly namespace: Buffer;
  readonly name: Buffer;
  readonly type: string;
  readonly label: string;
  readonly payload: Buffer;
  readonly created_at: Buffer;
  readonly created_by: Buffer;
}

/** The immutable Object a row holds; the payload is parsed from its stored JSON and frozen. */
export function objectFromRow(row: ObjectRow): MemoryObject {
  // The database is shared; a row some other writer got wrong must not pass for an Object.
  if (!OID_PATTERN.test(row.oid) || !isObjectType(row.type) || !LABELS.includes(row.label as Label)) {
    throw objectStoreErrors.invalidRecord(STORE_NAME, String(row.oid));
  }
  return Object.freeze({
    oid: row.oid,
    namespace: utf8Text(row.namespace),
    name: utf8Text(row.name),
    type: row.type,
    payload: freezeJsonCopy(JSON.parse(utf8Text(row.payload))),
    label: row.label as Label,
    created_at: utf8Text(row.created_at),
    created_by: utf8Text(row.created_by),
  });
}
