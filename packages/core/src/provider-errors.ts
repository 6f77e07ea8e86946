import type { Effect } from './error-code.js';
import { LibosError } from './libos-error.js';
import type { WorkspacePath } from './workspace-path.js';

/** Where a factory's error stands: `none` (the default) unless the provider already changed something. */
export interface ProviderErrorOptions {
  readonly effect?: Effect;
  readonly cause?: unknown;
}

/** Why `not_a_file` refused: the entry is a directory (the root included) or a FIFO, socket or device. */
export type NotAFileKind = 'directory' | 'other';

/** Why a `provider_failure` happened when it is not a host error: the provider is closed, or the call was aborted. */
export type ProviderFailureReason = 'closed' | 'cancelled' | 'root_gone' | 'too_deep';

const quote = (path: string): string => `'${path}'`;

function make(code: LibosError['code'], message: string, details: Record<string, unknown>, options: ProviderErrorOptions = {}): LibosError {
  return new LibosError(code, message, {
    details,
    ...(options.effect === undefined ? {} : { effect: options.effect }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

// One sentence per host condition, so a provider never writes one of its own for them.
const hostSentences: Readonly<Record<string, (path: string) => string>> = {
  EACCES: (path) => `The host refused access to ${quote(path)}.`,
  EPERM: (path) => `The host refused access to ${quote(path)}.`,
  ENOSPC: (path) => `The host has no space left to write ${quote(path)}.`,
  EDQUOT: (path) => `The host has no space left to write ${quote(path)}.`,
  EROFS: (path) => `The workspace is on a read-only filesystem (${quote(path)}).`,
  EMFILE: (path) => `The host ran out of file descriptors at ${quote(path)}.`,
  ENFILE: (path) => `The host ran out of file descriptors at ${quote(path)}.`,
  EBUSY: (path) => `${quote(path)} is busy on the host.`,
};

/**
 * One factory per error a provider raises, so every provider words a condition the same way and
 * names its values with the same snake_case `details` keys (`PROVIDER_ERROR_DETAILS` lists them).
 * `path` is always the canonical path the method was called with, or the ancestor where resolution
 * stopped; never a host path. Every error has effect `none` unless `options.effect` says otherwise,
 * except `failure`, whose default is `unknown` (CONTRACT.md section 4).
 */
export const providerErrors = {
  /** `not_found`: nothing at `path`; `missing` names the first missing ancestor when it is not `path` itself. */
  notFound(path: WorkspacePath, missing?: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    if (missing === undefined || missing === path) return make('not_found', `Nothing exists at ${quote(path)}.`, { path }, options);
    return make('not_found', `${quote(missing)} does not exist, so ${quote(path)} cannot be reached.`, { path, missing }, options);
  },
  /** `not_found` for every call once the workspace root itself has been removed. */
  rootGone(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make('not_found', 'The workspace root no longer exists.', { path, reason: 'root_gone' }, options);
  },
  /** `provider_failure` with effect `none`: something that is not a directory took the workspace root's place. */
  rootReplaced(path: WorkspacePath): LibosError {
    return make('provider_failure', 'The workspace root is no longer a directory.', { path, reason: 'root_gone' }, { effect: 'none' });
  },
  /** `already_exists`: something is at `path` and the call may not replace it. */
  alreadyExists(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make('already_exists', `Something already exists at ${quote(path)}.`, { path }, options);
  },
  /** `not_a_file`: the target is a directory (the root too) or kind `other`. */
  notAFile(path: WorkspacePath, kind: NotAFileKind, options?: ProviderErrorOptions): LibosError {
    const what = kind === 'directory' ? 'a directory' : 'a special file (FIFO, socket or device)';
    return make('not_a_file', `${quote(path)} is ${what}, not a regular file.`, { path, kind }, options);
  },
  /** `not_a_directory`: the target, or the ancestor `component`, exists and is not a directory. */
  notADirectory(path: WorkspacePath, component?: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    if (component === undefined || component === path) return make('not_a_directory', `${quote(path)} is not a directory.`, { path }, options);
    return make('not_a_directory', `${quote(component)} is not a directory, so ${quote(path)} cannot be reached.`, { path, component }, options);
  },
  /** `directory_not_empty`: a non-recursive delete of a directory that holds anything. */
  directoryNotEmpty(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make('directory_not_empty', `The directory ${quote(path)} is not empty.`, { path }, options);
  },
  /** `symlink_refused`: `link` (the target itself by default) is a link or a mount point, never followed or crossed. */
  symlinkRefused(path: WorkspacePath, link: WorkspacePath = path, options?: ProviderErrorOptions): LibosError {
    const message =
      link === path
        ? `${quote(path)} is a symbolic link or a mount point, which is never followed.`
        : `${quote(path)} passes through ${quote(link)}, a symbolic link or a mount point, which is never followed.`;
    return make('symlink_refused', message, { path, link }, options);
  },
  /** `hard_link_refused`: a regular file with `links` names, any of which may lie outside the workspace. */
  hardLinkRefused(path: WorkspacePath, links: number, options?: ProviderErrorOptions): LibosError {
    return make(
      'hard_link_refused',
      `${quote(path)} has ${links} hard links; such files are never read, replaced, moved or deleted.`,
      { path, links },
      options,
    );
  },
  /**
   * `content_conflict`: `expected` is the `expectedSha256` given; `actual` the hash of the current
   * bytes when the provider computed it, or null when no file is there.
   */
  contentConflict(path: WorkspacePath, expected: string, actual?: string | null, options?: ProviderErrorOptions): LibosError {
    const message =
      expected === 'missing'
        ? `A file exists at ${quote(path)}, but none was expected.`
        : actual === null
          ? `${quote(path)} does not exist, but its current content was expected.`
          : `The current content of ${quote(path)} does not match the expected SHA-256.`;
    const details = actual === undefined ? { path, expected_sha256: expected } : { path, expected_sha256: expected, actual_sha256: actual };
    return make('content_conflict', message, details, options);
  },
  /**
   * `content_conflict` of an append: the file's size was `actual` (null: no file), not `expected`.
   */
  sizeConflict(path: WorkspacePath, expected: number, actual: number | null, options?: ProviderErrorOptions): LibosError {
    const message =
      actual === null
        ? `${quote(path)} does not exist, but a size of ${expected} bytes was expected.`
        : `${quote(path)} holds ${actual} bytes, not the ${expected} expected.`;
    return make('content_conflict', message, { path, expected_size_bytes: expected, actual_size_bytes: actual }, options);
  },
  /** `protected_path`: a recursive delete of `path` met the `.git` alias `entry`. */
  protectedPath(path: WorkspacePath, entry: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make(
      'protected_path',
      `The tree ${quote(path)} holds ${quote(entry)}, a protected .git entry, so it is not deleted.`,
      { path, protected: entry },
      options,
    );
  },
  /** `root_refused`: the workspace root itself cannot be deleted. */
  rootRefused(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make('root_refused', 'The workspace root itself cannot be deleted.', { path }, options);
  },
  /** `changed_during_operation`: the entry at `path` was swapped while the call worked on it. */
  changedDuringOperation(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    return make('changed_during_operation', `${quote(path)} changed while the call was working on it.`, { path }, options);
  },
  /** `provider_failure` from the host: `hostCode` is its error code (`ENOSPC`), or null when it had none. Effect `unknown` by default. */
  failure(path: WorkspacePath, hostCode: string | null, options?: ProviderErrorOptions): LibosError {
    const sentence = hostCode === null ? undefined : hostSentences[hostCode];
    const message = sentence?.(path) ?? `The host failed an operation on ${quote(path)}${hostCode === null ? '' : ` (${hostCode})`}.`;
    return make('provider_failure', message, { path, host_code: hostCode }, { effect: 'unknown', ...options });
  },
  /**
   * `quota_exceeded`: writing `writeBytes` at `path` would take the workspace's stored file bytes
   * (`usedBytes` now) past `maxBytes`; effect `none`, nothing was written.
   */
  quotaExceeded(path: WorkspacePath, usedBytes: number, writeBytes: number, maxBytes: number, options?: ProviderErrorOptions): LibosError {
    return make(
      'quota_exceeded',
      `Writing ${writeBytes} bytes to ${quote(path)} would take the workspace past its quota of ${maxBytes} bytes (${usedBytes} in use).`,
      { path, used_bytes: usedBytes, write_bytes: writeBytes, max_bytes: maxBytes },
      options,
    );
  },
  /** `provider_failure` with effect `none`: the provider is closed, so nothing was touched. */
  closed(path: WorkspacePath, providerName: string): LibosError {
    return make('provider_failure', `The ${providerName} provider is closed.`, { path, reason: 'closed' }, { effect: 'none' });
  },
  /** `provider_failure`: the call's signal aborted it; effect `none` unless it had begun changing things. */
  cancelled(path: WorkspacePath, options?: ProviderErrorOptions): LibosError {
    const effect = options?.effect ?? 'none';
    const message =
      effect === 'none'
        ? `The call on ${quote(path)} was cancelled before it changed anything.`
        : `The call on ${quote(path)} was cancelled midway; observe before retrying.`;
    return make('provider_failure', message, { path, reason: 'cancelled' }, { ...options, effect });
  },
  /** `provider_failure` with effect `none` by default: a tree deeper than the provider walks. */
  tooDeep(path: WorkspacePath, maxDepth: number, options?: ProviderErrorOptions): LibosError {
    return make(
      'provider_failure',
      `The tree below ${quote(path)} is deeper than ${maxDepth} levels.`,
      { path, reason: 'too_deep', max_depth: maxDepth },
      { effect: 'none', ...options },
    );
  },
};

/**
 * The `details` keys of every provider error, by code: `required` always present, `optional`
 * allowed. Values are strings, numbers, booleans or null. The conformance kit checks every error
 * against this table, so two providers cannot drift apart.
 */
export const PROVIDER_ERROR_DETAILS: Readonly<
  Partial<Record<LibosError['code'], { readonly required: readonly string[]; readonly optional: readonly string[] }>>
> = {
  not_found: { required: ['path'], optional: ['missing', 'reason'] },
  already_exists: { required: ['path'], optional: [] },
  not_a_file: { required: ['path', 'kind'], optional: [] },
  not_a_directory: { required: ['path'], optional: ['component'] },
  directory_not_empty: { required: ['path'], optional: [] },
  symlink_refused: { required: ['path', 'link'], optional: [] },
  hard_link_refused: { required: ['path', 'links'], optional: [] },
  content_conflict: { required: ['path'], optional: ['expected_sha256', 'actual_sha256', 'expected_size_bytes', 'actual_size_bytes'] },
  protected_path: { required: ['path', 'protected'], optional: [] },
  root_refused: { required: ['path'], optional: [] },
  changed_during_operation: { required: ['path'], optional: [] },
  quota_exceeded: { required: ['path', 'used_bytes', 'write_bytes', 'max_bytes'], optional: [] },
  provider_failure: { required: ['path'], optional: ['host_code', 'reason', 'max_depth'] },
};
