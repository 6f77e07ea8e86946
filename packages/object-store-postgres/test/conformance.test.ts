import { describeObjectStore } from '@libos/object-store-conformance';
import { createPostgresObjectStore } from '../src/index.js';
import { describePostgres, dropSchema, postgresUrl, uniqueSchema } from './postgres.js';

// The Object store kit, unmodified: every case on an empty schema of its own, a second instance
// (another pool: another host) for the shared cases, a one-second lease for the expiry case.
describePostgres('the Object store kit', () => {
  describeObjectStore(
    'postgres',
    async ({ onCleanup }) => {
      const schema = uniqueSchema();
      onCleanup(() => dropSchema(schema));
      const open = () => createPostgresObjectStore({ connectionString: postgresUrl, schema, leaseMs: 1_000, maxConnections: 4 });
      return { store: await open(), openAnother: open };
    },
    { timeoutMs: 60_000 },
  );
});
