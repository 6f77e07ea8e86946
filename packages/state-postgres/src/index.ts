export { createPostgresProcessStore, DEFAULT_STATE_SCHEMA } from './create-postgres-process-store.js';
export type { PostgresStateOptions } from './create-postgres-process-store.js';
export { migrate } from './migrate.js';
export type { MigrationReport } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
