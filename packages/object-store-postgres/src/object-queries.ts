import type { Pool } from 'pg';
import type { MemoryObject } from '@libos/object-memory';
import { OBJECT_COLUMNS, objectFromRow, type ObjectRow } from './object-rows.js';
import { utf8Bytes, utf8Text } from './utf8.js';

// Every query is a named prepared statement (parsed once per connection); names carry the schema
// so two stores on one pool never share a statement name with different text.

/** Makes a declared namespace exist (idempotent). */
export async function insertNamespace(pool: Pool, schema: string, namespace: string, hostId: string | null): Promise<void> {
  await pool.query({
    name: `${schema}.insert_namespace`,
    text: `INSERT INTO ${schema}.namespaces (name, host_id) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
    values: [utf8Bytes(namespace), hostId],
  });
}

/** Whether the namespace exists. */
export async function namespaceExists(pool: Pool, schema: string, namespace: string): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.namespace_exists`,
    text: `SELECT 1 FROM ${schema}.namespaces WHERE name = $1`,
    values: [utf8Bytes(namespace)],
  });
  return rowCount === 1;
}

/** Every namespace's name, sorted as JavaScript sorts strings (the in-memory store's order). */
export async function selectNamespaces(pool: Pool, schema: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: Buffer }>({ name: `${schema}.select_namespaces`, text: `SELECT name FROM ${schema}.namespaces` });
  return rows.map((row) => utf8Text(row.name)).sort();
}

/**
 * Removes a namespace; the cascade removes its Objects and the usage triggers give back their
 * share of the quotas. Returns how many Objects went (0 when the namespace did not exist).
 */
export async function deleteNamespace(pool: Pool, schema: string, namespace: string): Promise<number> {
  // The count reads the snapshot from before the delete; the delete's row lock waits for any
  // creator still inserting into the namespace, so what it counts is what the cascade removes.
  const { rows } = await pool.query<{ dropped: string }>({
    name: `${schema}.delete_namespace`,
    text: `WITH gone AS (DELETE FROM ${schema}.namespaces WHERE name = $1 RETURNING name)
           SELECT count(o.oid) AS dropped FROM gone LEFT JOIN ${schema}.objects o ON o.namespace = gone.name`,
    values: [utf8Bytes(namespace)],
  });
  return Number(rows[0]?.dropped ?? 0);
}

/** What `create_object` needs; `payloadJson` is the payload's compact JSON. */
export interface ObjectInsert {
  readonly oid: string;
  readonly namespace: string;
  readonly name: string;
  readonly type: string;
  readonly label: string;
  readonly payloadJson: string;
  readonly createdAt: Date;
  readonly createdBy: string;
  readonly maxObjectsCount: number;
  readonly maxObjectsBytes: number;
}

/** How a create ended; a quota refusal arrives as the database error `LQ001` instead. */
export type CreateOutcome = 'created' | 'name_taken' | 'namespace_not_found';

/** Creates one Object in one statement (the `create_object` function of the schema). */
export async function insertObject(pool: Pool, schema: string, object: ObjectInsert): Promise<CreateOutcome> {
  const { rows } = await pool.query<{ outcome: CreateOutcome }>({
    name: `${schema}.create_object`,
    text: `SELECT ${schema}.create_object($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) AS outcome`,
    values: [
      object.oid,
      utf8Bytes(object.namespace),
      utf8Bytes(object.name),
      object.type,
      object.label,
      utf8Bytes(object.payloadJson),
      object.createdAt,
      object.createdBy,
      object.maxObjectsCount,
      object.maxObjectsBytes,
    ],
  });
  return rows[0]!.outcome;
}

/** The namespace's Object of that name: `undefined` when there is none, `null` when the namespace does not exist. */
export async function selectObject(pool: Pool, schema: string, namespace: string, name: string): Promise<MemoryObject | undefined | null> {
  const { rows } = await pool.query<ObjectRow | { oid: null }>({
    name: `${schema}.select_object`,
    text: `SELECT ${OBJECT_COLUMNS} FROM ${schema}.namespaces n
             LEFT JOIN ${schema}.objects o ON o.namespace = n.name AND o.name = $2
           WHERE n.name = $1`,
    values: [utf8Bytes(namespace), utf8Bytes(name)],
  });
  const row = rows[0];
  if (row === undefined) return null;
  return row.oid === null ? undefined : objectFromRow(row as ObjectRow);
}

/** The Object with that oid, in any namespace. */
export async function selectObjectByOid(pool: Pool, schema: string, oid: string): Promise<MemoryObject | undefined> {
  const { rows } = await pool.query<ObjectRow>({
    name: `${schema}.select_object_by_oid`,
    text: `SELECT ${OBJECT_COLUMNS} FROM ${schema}.objects o WHERE o.oid = $1`,
    values: [oid],
  });
  return rows[0] === undefined ? undefined : objectFromRow(rows[0]);
}

/** The namespace's Objects in creation order, or `null` when the namespace does not exist. */
export async function selectObjects(pool: Pool, schema: string, namespace: string): Promise<MemoryObject[] | null> {
  const { rows } = await pool.query<ObjectRow | { oid: null }>({
    name: `${schema}.select_objects`,
    text: `SELECT ${OBJECT_COLUMNS} FROM ${schema}.namespaces n
             LEFT JOIN ${schema}.objects o ON o.namespace = n.name
           WHERE n.name = $1 ORDER BY o.seq`,
    values: [utf8Bytes(namespace)],
  });
  if (rows.length === 0) return null;
  return rows.filter((row): row is ObjectRow => row.oid !== null).map(objectFromRow);
}

/** What the live Objects take: their count and the UTF-8 bytes of their payloads' JSON. */
export async function selectUsage(pool: Pool, schema: string): Promise<{ objects: number; bytes: number }> {
  const { rows } = await pool.query<{ objects: string; bytes: string }>({
    name: `${schema}.select_usage`,
    text: `SELECT objects, bytes FROM ${schema}.usage`,
  });
  return { objects: Number(rows[0]?.objects ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
}
