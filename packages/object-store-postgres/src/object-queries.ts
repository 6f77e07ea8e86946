import type { MemoryObject } from '@libos/core';
import type { Pool } from 'pg';
import { OBJECT_COLUMNS, objectFromRow, type ObjectRow } from './object-rows.js';
import { utf8Bytes, utf8Text } from './utf8.js';

// Every query is a named prepared statement (parsed once per connection); names carry the schema,
// so two stores on one pool never share a statement name with different text. A name is found by
// its SHA-256 (what the unique indexes hold) and then compared byte for byte. "Live" means a
// declared namespace, or a process namespace whose lease has not expired (judged by the database's
// clock so that hosts whose clocks disagree still agree on what expired) or whose owner still
// holds its session lock: a stalled owner is alive (owner-lock.ts).
const NAMED = (column: string, parameter: string) => `sha256(${column}) = sha256(${parameter}) AND ${column} = ${parameter}`;
const LIVE_IN = (schema: string) => `(n.lease_expires_at IS NULL OR n.lease_expires_at >= now() OR ${schema}.owner_alive(n.owner_key))`;
// Expired and ownerless: what a sweep may take.
const GONE_IN = (schema: string) => `lease_expires_at < now() AND NOT ${schema}.owner_alive(owner_key)`;

/** Declares a namespace; with `leaseMs`, a process namespace whose lease starts or renews, owned by the lock `ownerKey`. */
export async function declareNamespace(pool: Pool, schema: string, namespace: string, leaseMs: number | null, ownerKey: number): Promise<void> {
  await pool.query({
    name: `${schema}.declare_owned_namespace`,
    text: `SELECT ${schema}.declare_namespace($1, $2::double precision, $3::integer)`,
    values: [utf8Bytes(namespace), leaseMs, ownerKey],
  });
}

/** Whether the namespace is live. */
export async function namespaceExists(pool: Pool, schema: string, namespace: string): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.namespace_exists`,
    text: `SELECT 1 FROM ${schema}.namespaces n WHERE ${NAMED('n.name', '$1')} AND ${LIVE_IN(schema)}`,
    values: [utf8Bytes(namespace)],
  });
  return rowCount === 1;
}

/** Every live namespace, sorted by code point (bytea compares UTF-8 bytes, which sort the same). */
export async function selectNamespaces(pool: Pool, schema: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: Buffer }>({
    name: `${schema}.select_namespaces`,
    text: `SELECT n.name FROM ${schema}.namespaces n WHERE ${LIVE_IN(schema)} ORDER BY n.name`,
  });
  return rows.map((row) => utf8Text(row.name));
}

/**
 * Removes a namespace; the cascade removes its Objects and the usage triggers give back their
 * share of the quotas. Returns how many Objects of a live namespace went (0 when it was not live).
 */
export async function deleteNamespace(pool: Pool, schema: string, namespace: string): Promise<number> {
  // The count reads the snapshot from before the delete; the delete's row lock waits for any
  // creator still inserting into the namespace, so what it counts is what the cascade removes.
  const { rows } = await pool.query<{ dropped: string }>({
    name: `${schema}.delete_namespace`,
    text: `WITH gone AS (DELETE FROM ${schema}.namespaces n WHERE ${NAMED('n.name', '$1')} RETURNING n.id, ${LIVE_IN(schema)} AS live)
           SELECT count(o.oid) AS dropped FROM gone LEFT JOIN ${schema}.objects o ON o.namespace_id = gone.id WHERE gone.live`,
    values: [utf8Bytes(namespace)],
  });
  return Number(rows[0]?.dropped ?? 0);
}

/**
 * Renews the leases of the named process namespaces and drops every other expired one whose owner
 * no longer holds its lock, or that is this owner's own and no longer renewed (its process ended,
 * and its drop did not happen), with its Objects, in one statement (`now()` is fixed for the statement). A namespace named here is its
 * owner's and the owner is alive (it is renewing): one whose lease ran out while the owner's event
 * loop stalled, and that no other host swept meanwhile, is renewed with its Objects, never dropped
 * by its own owner's renewal. The two parts touch disjoint rows, so neither races the other.
 */
export async function renewLeases(pool: Pool, schema: string, namespaces: readonly string[], leaseMs: number, ownerKey: number): Promise<void> {
  await pool.query({
    name: `${schema}.renew_leases`,
    text: `WITH wanted AS (SELECT id FROM ${schema}.namespaces
                         WHERE sha256(name) IN (SELECT sha256(wanted) FROM unnest($1::bytea[]) AS wanted)
                           AND name = ANY($1::bytea[]) AND lease_expires_at IS NOT NULL),
                swept AS (DELETE FROM ${schema}.namespaces
                         WHERE lease_expires_at < now() AND id NOT IN (SELECT id FROM wanted)
                           AND (owner_key = $3::integer OR NOT ${schema}.owner_alive(owner_key)) RETURNING id)
           UPDATE ${schema}.namespaces SET lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
             WHERE id IN (SELECT id FROM wanted)`,
    values: [namespaces.map(utf8Bytes), leaseMs, ownerKey],
  });
}

/** Drops every expired process namespace whose owner is gone, with its Objects. */
export async function sweepExpired(pool: Pool, schema: string): Promise<void> {
  await pool.query({ name: `${schema}.sweep_expired`, text: `DELETE FROM ${schema}.namespaces WHERE ${GONE_IN(schema)}` });
}

/** How a create ended; a quota refusal arrives as the database error `LQ001` (count) or `LQ002` (bytes). */
export type CreateOutcome = 'created' | 'name_taken' | 'namespace_not_found';

/** Creates one Object in one statement (the schema's `create_object` function). */
export async function insertObject(
  pool: Pool,
  schema: string,
  object: MemoryObject,
  payloadBytes: number,
  quota: { readonly maxObjectsCount: number; readonly maxObjectsBytes: number },
): Promise<CreateOutcome> {
  const { rows } = await pool.query<{ outcome: CreateOutcome }>({
    name: `${schema}.create_object`,
    text: `SELECT ${schema}.create_object($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS outcome`,
    values: [
      object.oid,
      utf8Bytes(object.namespace),
      utf8Bytes(object.name),
      object.type,
      object.label,
      // JSON.stringify escapes lone surrogates and control characters (NUL included), so this
      // text is well-formed and its UTF-8 gives back exactly this payload, key order included.
      utf8Bytes(JSON.stringify(object.payload)),
      payloadBytes,
      utf8Bytes(object.created_at),
      utf8Bytes(object.created_by),
      quota.maxObjectsCount,
      quota.maxObjectsBytes,
    ],
  });
  return rows[0]!.outcome;
}

const FROM_LIVE = (schema: string) => `${schema}.objects o JOIN ${schema}.namespaces n ON n.id = o.namespace_id`;

/** The live Object of that name in a live namespace. */
export async function selectObject(pool: Pool, schema: string, namespace: string, name: string): Promise<MemoryObject | undefined> {
  const { rows } = await pool.query<ObjectRow>({
    name: `${schema}.select_object`,
    text: `SELECT ${OBJECT_COLUMNS} FROM ${FROM_LIVE(schema)} WHERE ${NAMED('n.name', '$1')} AND ${NAMED('o.name', '$2')} AND ${LIVE_IN(schema)}`,
    values: [utf8Bytes(namespace), utf8Bytes(name)],
  });
  return rows[0] === undefined ? undefined : objectFromRow(rows[0]);
}

/** The live Object with that oid, in any live namespace. */
export async function selectObjectByOid(pool: Pool, schema: string, oid: string): Promise<MemoryObject | undefined> {
  const { rows } = await pool.query<ObjectRow>({
    name: `${schema}.select_object_by_oid`,
    text: `SELECT ${OBJECT_COLUMNS} FROM ${FROM_LIVE(schema)} WHERE o.oid = $1 AND ${LIVE_IN(schema)}`,
    values: [oid],
  });
  return rows[0] === undefined ? undefined : objectFromRow(rows[0]);
}

/** The names of a live namespace's Objects in creation order. */
export async function selectNames(pool: Pool, schema: string, namespace: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: Buffer }>({
    name: `${schema}.select_names`,
    text: `SELECT o.name FROM ${FROM_LIVE(schema)} WHERE ${NAMED('n.name', '$1')} AND ${LIVE_IN(schema)} ORDER BY o.seq`,
    values: [utf8Bytes(namespace)],
  });
  return rows.map((row) => utf8Text(row.name));
}

/** What the live Objects take: their count and the sum of their payload bytes. */
export async function selectUsage(pool: Pool, schema: string): Promise<{ objects: number; bytes: number }> {
  const { rows } = await pool.query<{ objects: string; bytes: string }>({
    name: `${schema}.select_usage`,
    text: `SELECT objects, bytes FROM ${schema}.usage`,
  });
  return { objects: Number(rows[0]?.objects ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
}
