import { describeProvider } from '@libos/provider-conformance';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createPostgresProvider } from '../src/index.js';
import { postgresFixtures } from './fixtures.js';
import { SHARED_SCHEMA, freshWorkspace, postgresUrl } from './postgres.js';

if (inject('postgresMissing') === '') {
  // One pool for the fixtures of every case; each case gets its own provider and workspace.
  const fixturePool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
  fixturePool.on('error', () => undefined);
  afterAll(() => fixturePool.end());
  describeProvider(
    'postgres provider',
    async ({ onCleanup }) => {
      const workspace = freshWorkspace();
      const provider = createPostgresProvider({ connectionString: postgresUrl, schema: SHARED_SCHEMA, workspace, maxConnections: 4 });
      onCleanup(() => provider.close());
      // The fixtures write into the workspace, so it must exist before the case starts.
      await provider.open();
      return { provider, fixtures: postgresFixtures(fixturePool, SHARED_SCHEMA, workspace) };
    },
    { timeoutMs: 30_000 },
  );
}
