import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, onTestFinished } from 'vitest';
import type { ObjectStoreV1 } from '@libos/core';
import { createPostgresObjectStore, type PostgresObjectStoreOptions } from '../src/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresMissing: string;
  }
}

/** The server the global setup found or started ("" when there is none and this is not CI). */
export const postgresUrl = inject('postgresUrl');

/** `describe` for tests that need PostgreSQL: without one (never under CI) they skip, saying why. */
export function describePostgres(name: string, body: () => void): void {
  const missing = inject('postgresMissing');
  if (missing === '') describe(name, body);
  else describe.skip(`${name} (skipped: ${missing})`, body);
}

/** A schema name no other test uses. */
export function uniqueSchema(): string {
  return `libos_test_${randomBytes(6).toString('hex')}`;
}

/** Drops a test's schema and everything in it. */
export async function dropSchemaLater(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A schema name no other test uses; it is dropped when the test ends. */
export function freshSchema(): string {
  const schema = uniqueSchema();
  onTestFinished(() => dropSchemaLater(schema));
  return schema;
}

/** A pool to the test server (a "host"), ended when the test ends. */
export function testPool(max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresUrl, max });
  pool.on('error', () => undefined);
  onTestFinished(() => pool.end());
  return pool;
}

/** A store on the test server in `schema`, closed when the test ends. */
export async function testStore(
  schema: string,
  options: Omit<PostgresObjectStoreOptions, 'connectionString' | 'pool' | 'schema'> & { pool?: pg.Pool } = {},
): Promise<ObjectStoreV1> {
  const store = await createPostgresObjectStore(
    options.pool === undefined ? { ...options, connectionString: postgresUrl, schema } : { ...options, schema },
  );
  onTestFinished(() => store.close().catch(() => undefined));
  return store;
}
