import type { DirectoryListing, FileRead, ListDirectoryOptions, ProviderCallOptions, ReadFileOptions } from './provider.js';
import type { WorkspacePath } from './workspace-path.js';

/**
 * A directory a provider holds open (`FileSystemProviderV1.openDirectory`), so that a walk pays for
 * resolving its path once rather than once per entry: a tree walked through handles costs what its
 * entries cost, never its depth squared. Every method behaves exactly as the provider's method of
 * the same name on `childPath(path, name)` (the same results, the same refusals and codes: a link,
 * a mount point, a hard link, kind `other`, a `.git` alias or the provider's own temporary names),
 * except that the entry is looked up in the very directory the handle holds, even if that
 * directory was renamed since it was opened. `name` is one component as a listing reports it.
 * A handle stays valid until `close` (idempotent) or the provider's own `close`, after which its
 * methods fail with `provider_failure`.
 */
export interface DirectoryHandle {
  /** The canonical identity of the directory when it was opened. */
  readonly path: WorkspacePath;
  /** Lists the directory held, as `listDirectory(path)` would. */
  list(options: ListDirectoryOptions): Promise<DirectoryListing>;
  /** Opens the child directory `name`; throws `not_found`, `not_a_directory`, `symlink_refused`. */
  openDirectory(name: string, options?: ProviderCallOptions): Promise<DirectoryHandle>;
  /** Reads a prefix of the child file `name`, as `readFile(childPath(path, name))` would. */
  readFile(name: string, options: ReadFileOptions): Promise<FileRead>;
  /** Releases the handle. */
  close(): void;
}
