export { diffLines } from './line-diff.js';
export type { DiffRun } from './line-diff.js';
export { DIFF_CONTEXT_LINES, boundDiff, unifiedDiffLines } from './unified-diff.js';
export type { BoundedDiff } from './unified-diff.js';
export { urlWithoutPassword } from './url-without-password.js';
export {
  migrateSchema,
  type MigrateSchemaOptions,
  type MigrationConnection,
  type MigrationPool,
  type MigrationReport,
  type SchemaMigration,
} from './migrate-schema.js';
export { quoteSchema } from './quote-schema.js';
export { PROVIDER_METHODS } from './provider-methods.js';
export type { ListsEveryMethod, ProviderMethodName } from './provider-methods.js';
export { wrapProvider } from './wrap-provider.js';
export type { ProviderMiddleware } from './wrap-provider.js';
export { readSeedFile, scanSeed, seedWorkspace } from './seed-workspace.js';
export type { SeedEntry } from './seed-workspace.js';
export { EXPORT_DIRECTORY_MAX_ENTRIES, exportWorkspace } from './export-workspace.js';
export { lazyOptionalModule } from './lazy-optional-module.js';
export type { MissingModuleRefusal } from './lazy-optional-module.js';
export { checkTransferTarget } from './check-transfer-target.js';
export { createCallGate } from './call-gate.js';
export type { CallGate } from './call-gate.js';
export { checkSignal } from './check-signal.js';
export { hostErrorCode } from './host-error-code.js';
export { SmallestItems } from './smallest-items.js';
export { GATED_METHODS, defineProvider } from './define-provider.js';
export type { DefinedProvider, GatedMethodName, ProviderCall, ProviderDefinition, ProviderOperation, ProviderOperations } from './define-provider.js';
export { FAIR_POOL_IDLE_MS, FairThreadPool } from './fair-thread-pool.js';
export type { FairPoolCallbacks, FairPoolJob, FairPoolOptions, FairPoolStats } from './fair-thread-pool.js';
