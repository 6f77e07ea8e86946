import { randomBytes } from 'node:crypto';
import { describe, inject, onTestFinished } from 'vitest';
// What the global setup provides to the tests (its `declare module 'vitest'`).
import type {} from './global-setup.js';

// The test helpers both PostgreSQL backends share (`@libos/provider-postgres`,
// `@libos/object-store-postgres`): their test/postgres.ts import this file by relative path and add
// what is their own (a provider, a store). Test-only: no published file imports it.

/** The server the global setup found or started ("" when there is none and this is not CI). */
export const postgresUrl: string = inject('postgresUrl');

/** `describe` for tests that need PostgreSQL: without one (never under CI) they skip, saying why. */
export function describePostgres(name: string, body: () => void): void {
  const missing = inject('postgresMissing');
  if (missing === '') describe(name, body);
  else describe.skip(`${name} (skipped: ${missing})`, body);
}

/**
 * What the helpers need of node-postgres. Each package passes its own `pg`, so this file depends on
 * vitest alone and each package's tests keep the driver version that package pins.
 */
export interface PostgresDriver<P> {
  Pool: new (config: { connectionString: string; max: number }) => P;
  Client: new (config: {
    connectionString: string;
  }) => {
    connect(): Promise<unknown>;
    query(sql: string): Promise<unknown>;
    end(): Promise<unknown>;
  };
}

interface EndablePool {
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<unknown>;
}

/** The helpers on `pg`; schema names start with `schemaPrefix`, so a package's leftovers are easy to tell. */
export function postgresTestHelpers<P extends EndablePool>(pg: PostgresDriver<P>, schemaPrefix: string) {
  /** Drops a test's schema and everything in it. */
  async function dropSchema(schema: string): Promise<void> {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await admin.end();
    }
  }
  /** A schema name no other test uses. */
  const uniqueSchema = (): string => `${schemaPrefix}${randomBytes(6).toString('hex')}`;
  return {
    uniqueSchema,
    dropSchema,
    /** A schema name no other test uses; it is dropped when the test ends. */
    freshSchema(): string {
      const schema = uniqueSchema();
      onTestFinished(() => dropSchema(schema));
      return schema;
    },
    /** A pool to the test server (a "host"), ended when the test ends. */
    testPool(max = 4): P {
      const pool = new pg.Pool({ connectionString: postgresUrl, max });
      pool.on('error', () => undefined);
      onTestFinished(async () => {
        await pool.end();
      });
      return pool;
    },
  };
}
