import { LibosError } from '@libos/core';
import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

// The first key of the two-key advisory lock: "lbFS" in ASCII, apart from the Object store's, so
// the two never wait on each other even when they share a schema name.
const LOCK_CLASS = 0x6c624653;

/** What `migrate` found and did. */
export interface MigrationReport {
  /** The schema's version before this call. */
  readonly from: number;
  /** The schema's version now. */
  readonly to: number;
}

/**
 * Brings `schema` to the newest version, creating it on first use. Many hosts may start at once:
 * a transaction-scoped advisory lock per schema makes them take turns, and each applies only the
 * steps no one has recorded yet, in one transaction (a failed step leaves nothing). A schema newer
 * than this package is refused (`provider_failure`, effect `none`) rather than used with a layout
 * it does not know.
 */
export async function migrate(
  pool: Pool,
  schemaName: string,
  quotedSchema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  const client = await pool.connect();
  // Cut off while checked out, the client also emits 'error'; the query's rejection reports it.
  const ignore = (): void => undefined;
  client.on('error', ignore);
  let broken: unknown;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, schemaName]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quotedSchema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quotedSchema}.schema_migrations (
         version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quotedSchema}.schema_migrations`);
    const from = rows[0]?.version ?? 0;
    const newest = migrations.at(-1)?.version ?? 0;
    if (from > newest) {
      throw new LibosError(
        'provider_failure',
        `The schema "${schemaName}" is at version ${from}, newer than this package knows (${newest}); upgrade @libos/provider-postgres.`,
        { effect: 'none', details: { path: '.', reason: 'schema_too_new', schema_version: from, known_version: newest } },
      );
    }
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.sql(quotedSchema));
      await client.query(`INSERT INTO ${quotedSchema}.schema_migrations (version, description) VALUES ($1, $2)`, [
        migration.version,
        migration.description,
      ]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, newest) };
  } catch (error) {
    broken = error;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // After a failure the connection may be broken or mid-transaction: drop it rather than reuse it.
    client.off('error', ignore);
    client.release(broken === undefined ? undefined : true);
  }
}
