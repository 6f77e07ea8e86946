import type { LibosError } from './libos-error.js';
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
  /**
   * Optional: reads a prefix of each child file of `names`, in one call, as `readFile` would read
   * each in turn. Slot `i` of the answer holds the read of `names[i]` or the `LibosError` that
   * `readFile(names[i])` would have thrown (a link, a hard link, kind `other`, a vanished name, a
   * host failure on that entry); what is not about one entry (a closed handle, a cancellation)
   * rejects the whole call. It lets a walk pay one call per directory instead of one per file; a caller without
   * it calls `readFile` per name. The caller bounds `names.length * maxBytes`.
   */
  readFiles?(names: readonly string[], options: ReadFileOptions): Promise<readonly (FileRead | LibosError)[]>;
  /** Releases the handle. */
  close(): void;
}
