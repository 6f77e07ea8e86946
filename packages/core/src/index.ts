export { ERROR_CODES, isErrorCode } from './error-code.js';
export type { Effect, ErrorCode } from './error-code.js';
export { LibosError } from './libos-error.js';
export type { ErrorDetails, LibosErrorOptions, ToolFailure } from './libos-error.js';
export type { CallResult } from './call-result.js';
export { escapeForDisplay } from './display-text.js';
export type { DisplayOptions } from './display-text.js';
export { isGitAlias } from './git-alias.js';
export { mayHaveLookAlikes, nameKey, pathKey } from './name-key.js';
export {
  NAME_MAX_BYTES,
  PATH_MAX_BYTES,
  ROOT_PATH,
  baseName,
  childPath,
  isPathWithin,
  isRootPath,
  parentPath,
  parseCanonicalPath,
  pathSegments,
  resolveWorkspacePath,
  utf8ByteLength,
} from './workspace-path.js';
export type { WorkspacePath } from './workspace-path.js';
export type {
  AppendFileOptions,
  CopyFileOptions,
  DeleteDirectoryOptions,
  DeleteFileOptions,
  DirectoryEntry,
  DirectoryListing,
  EntryKind,
  FileAppend,
  FileRangeRead,
  FileRead,
  FileSystemProviderV1,
  ListDirectoryOptions,
  MakeDirectoryOptions,
  PathStatus,
  ProviderCallOptions,
  ReadFileOptions,
  ReadFileRangeOptions,
  RenameOptions,
  StatOptions,
  WriteFileOptions,
} from './provider.js';
export type { ProviderCapabilities } from './provider-capabilities.js';
export type { DirectoryHandle } from './directory-handle.js';
export type { TreeSearchAnswer, TreeSearchEntry, TreeSearchListing, TreeSearchQuery } from './tree-search.js';
export { PROVIDER_ERROR_DETAILS, providerErrors } from './provider-errors.js';
export type { NotAFileKind, ProviderErrorOptions, ProviderFailureReason } from './provider-errors.js';
export { FILE_MODE_BITS, checkFileMode } from './check-file-mode.js';
export { LABELS, labelExceeds } from './authority.js';
export type {
  AccessRequest,
  ApprovalContent,
  DeletionLoss,
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  Authority,
  GrantMode,
  Label,
  Permit,
  Right,
  TargetKind,
} from './authority.js';
export { DEFAULT_BOUNDS, configSchema, isValidNamespace, parseConfig } from './config.js';
export type { Bounds, ConfigInput, Grant, LibosConfig } from './config.js';
export { compareCodePoints } from './compare-code-points.js';
export type {
  DeclareNamespaceOptions,
  ObjectStoreCapabilities,
  ObjectStoreCreateOptions,
  ObjectStoreQuota,
  ObjectStoreUsage,
  ObjectStoreV1,
  StoreCallOptions,
} from './object-store.js';
export type { ProcessRecord, ProcessStoreV1 } from './process-store.js';
export { OBJECT_STORE_ERROR_DETAILS, checkStoreSignal, objectStoreErrors } from './object-store-errors.js';
export type { StoreFailureReason } from './object-store-errors.js';
export { OID_PATTERN } from './memory-object.js';
export type { JsonValue, MemoryObject } from './memory-object.js';
export { OBJECT_TYPES, isObjectType } from './object-types.js';
export type { ObjectType } from './object-types.js';
export type { Backend, BackendFlag, ObjectStoreBackend, OpenedProvider, ProviderBackend, ProviderBackendRequest } from './backend.js';
export type {
  AuditApproval,
  AuditCall,
  AuditCallStart,
  AuditCallerContext,
  AuditClient,
  AuditDecision,
  AuditSession,
  AuditTrail,
} from './audit-trail.js';
// Deprecated: moved to @libos/provider-kit; kept one release, not counted in the contract's bound.
export { SmallestItems, checkSignal, createCallGate, hostErrorCode } from './deprecated.js';
export type { CallGate } from './deprecated.js';
