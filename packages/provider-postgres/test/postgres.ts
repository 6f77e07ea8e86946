import { randomBytes } from 'node:crypto';
import { createRuntime, type RuntimeProcess } from '@libos/tools';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { postgresTestHelpers, postgresUrl } from '../../../tooling/postgres/test-database.js';
import { walkOnly } from '../../tools/test/support/walk-only.js';
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

/**
 * Two agents on one provider: one whose searches go through `searchTree`, one whose tools walk it
 * directory by directory (the runtimes closed when the test ends), to compare their answers.
 */
export async function pushedAndWalked(provider: PostgresProvider): Promise<[pushed: RuntimeProcess, walked: RuntimeProcess]> {
  const pushed = await createRuntime({ provider });
  const walked = await createRuntime({ provider: walkOnly(provider) });
  onTestFinished(async () => {
    await pushed.close();
    await walked.close();
  });
  return [pushed.spawn(), walked.spawn()];
}
