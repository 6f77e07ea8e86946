export {
  DEFAULT_WORKSPACE_MAX_BYTES,
  POSTGRES_CAPABILITIES,
  createPostgresProvider,
  type PostgresProvider,
  type PostgresProviderOptions,
} from './create-postgres-provider.js';
export { migrate, type MigrationReport } from './migrate.js';
export { MIGRATIONS, CHUNK_BYTES, type Migration } from './migrations.js';
export { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';
