import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, onTestFinished } from 'vitest';
import { createPostgresProvider, type PostgresProvider, type PostgresProviderOptions } from '../src/index.js';

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

/** The schema most tests share: each test works in a workspace of its own inside it. */
export const SHARED_SCHEMA = 'libos_fs_test';

/** A workspace name no other test uses. */
export function freshWorkspace(): string {
  return `ws-${randomBytes(8).toString('hex')}`;
}

/** A schema name no other test uses; it is dropped when the test ends. */
export function freshSchema(): string {
  const schema = `libos_fs_test_${randomBytes(6).toString('hex')}`;
  onTestFinished(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await admin.end();
    }
  });
  return schema;
}

/** A pool to the test server, ended when the test ends. */
export function testPool(max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresUrl, max });
  pool.on('error', () => undefined);
  onTestFinished(() => pool.end());
  return pool;
}

/** A provider on a fresh workspace (or the one named), closed when the test ends. */
export function testProvider(options: Partial<PostgresProviderOptions> = {}): PostgresProvider {
  const provider = createPostgresProvider({
    schema: SHARED_SCHEMA,
    workspace: freshWorkspace(),
    ...(options.pool === undefined ? { connectionString: postgresUrl } : {}),
    ...options,
  } as PostgresProviderOptions);
  onTestFinished(() => provider.close());
  return provider;
}
