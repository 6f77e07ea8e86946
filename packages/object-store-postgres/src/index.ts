export { createPostgresObjectStore } from './create-postgres-object-store.js';
export type { PostgresObjectStoreOptions } from './create-postgres-object-store.js';
export { migrate } from './migrate.js';
export type { MigrationReport } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';
