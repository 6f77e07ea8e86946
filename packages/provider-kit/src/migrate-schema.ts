/** One step of a database schema, applied once per schema and recorded in its `schema_migrations` table. */
export interface SchemaMigration {
  readonly version: number;
  readonly description: string;
  /** The SQL of the step for a schema already quoted, e.g. `"libos_fs"`. */
  sql(schema: string): string;
}

/** What `migrateSchema` found and did. */
export interface MigrationReport {
  /** The schema's version before this call. */
  readonly from: number;
  /** The schema's version now. */
  readonly to: number;
}

/**
 * What the runner needs of one connection; a node-postgres `PoolClient` is one. Core has no
 * database driver: the PostgreSQL backends pass their own pool.
 */
export interface MigrationConnection {
  query(sql: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** Gives the connection back; `true` destroys it instead. */
  release(destroy?: boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

/** Where the runner gets its connection; a node-postgres `Pool` is one. */
export interface MigrationPool {
  connect(): Promise<MigrationConnection>;
}

/** What differs between the schemas that use the runner. */
export interface MigrateSchemaOptions {
  /** The schema's plain name (the advisory lock's second key). */
  readonly schemaName: string;
  /** The same name quoted for SQL. */
  readonly quotedSchema: string;
  /** Every step, in order of version; a released step is never edited, a new one is appended. */
  readonly migrations: readonly SchemaMigration[];
  /** The advisory lock's first key, one per kind of schema, so two kinds sharing a schema name never wait on each other. */
  readonly lockClass: number;
  /** The error for a schema newer than `migrations` know, thrown with nothing changed. */
  tooNew(version: number, known: number): Error;
}

/**
 * Brings a schema to the newest version, creating it on first use. Many hosts may start at once:
 * a transaction-scoped advisory lock per schema makes them take turns, and each applies only the
 * steps no one has recorded yet, all in one transaction (a failed step leaves nothing). A schema
 * newer than the caller knows is refused rather than used with a layout it does not know.
 */
export async function migrateSchema(pool: MigrationPool, options: MigrateSchemaOptions): Promise<MigrationReport> {
  const { quotedSchema: s, migrations } = options;
  const client = await pool.connect();
  // Cut off while checked out, the client also emits 'error'; unheard, it would end the process.
  // The query's own rejection is what reports it.
  const ignore = (): void => undefined;
  client.on('error', ignore);
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [options.lockClass, options.schemaName]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
         version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query(`SELECT max(version) AS version FROM ${s}.schema_migrations`);
    const from = (rows[0] as { version: number | null } | undefined)?.version ?? 0;
    const newest = migrations.at(-1)?.version ?? 0;
    if (from > newest) throw options.tooNew(from, newest);
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.sql(s));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [migration.version, migration.description]);
    }
    await client.query('COMMIT');
    return { from, to: Math.max(from, newest) };
  } catch (error) {
    broken = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // After a failure the connection may be broken or mid-transaction: drop it rather than reuse it.
    client.off('error', ignore);
    client.release(broken ? true : undefined);
  }
}
