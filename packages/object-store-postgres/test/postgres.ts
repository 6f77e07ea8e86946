import type { ObjectStoreV1 } from '@libos/core';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { postgresTestHelpers, postgresUrl } from '../../../tooling/postgres/test-database.js';
import { createPostgresObjectStore, type PostgresObjectStoreOptions } from '../src/index.js';

export { describePostgres, postgresUrl } from '../../../tooling/postgres/test-database.js';

/** `uniqueSchema()`, `dropSchema(name)`, `freshSchema()` (dropped when the test ends) and `testPool(max)`. */
export const { uniqueSchema, dropSchema, freshSchema, testPool } = postgresTestHelpers(pg, 'libos_test_');

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
