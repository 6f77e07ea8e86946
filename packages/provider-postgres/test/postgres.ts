import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { postgresTestHelpers, postgresUrl } from '../../../tooling/postgres/test-database.js';
import { createPostgresProvider, type PostgresProvider, type PostgresProviderOptions } from '../src/index.js';

export { describePostgres, postgresUrl } from '../../../tooling/postgres/test-database.js';

/** `freshSchema()` (dropped when the test ends) and `testPool(max)` (ended when it ends). */
export const { freshSchema, testPool } = postgresTestHelpers(pg, 'libos_fs_test_');

/** The schema most tests share: each test works in a workspace of its own inside it. */
export const SHARED_SCHEMA = 'libos_fs_test';

/** A workspace name no other test uses. */
export function freshWorkspace(): string {
  return `ws-${randomBytes(8).toString('hex')}`;
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
