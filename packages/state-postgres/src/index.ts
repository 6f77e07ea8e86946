export { createPostgresProcessStore, DEFAULT_STATE_SCHEMA } from './create-postgres-process-store.js';
export type { PostgresStateOptions } from './create-postgres-process-store.js';
export { migrate } from './migrate.js';
export type { MigrationReport } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { createPostgresApprovalState } from './create-postgres-approval-state.js';
export type { PostgresApprovalState } from './create-postgres-approval-state.js';
