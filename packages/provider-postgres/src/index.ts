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
/** @deprecated Import `seedWorkspace` from `@libos/provider-kit`: it works on any provider. Removed in the next release. */
export { seedWorkspace } from '@libos/provider-kit';
/** @deprecated Import these from `@libos/provider-kit`: they work on any provider. Removed in the next release. */
export { EXPORT_DIRECTORY_MAX_ENTRIES, exportWorkspace } from '@libos/provider-kit';
