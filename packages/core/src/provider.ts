import type { DirectoryHandle } from './directory-handle.js';
import type { TreeSearchAnswer, TreeSearchQuery } from './tree-search.js';
import type { ProviderCapabilities } from './provider-capabilities.js';
import type { WorkspacePath } from './workspace-path.js';
import type { ProviderCallOptions } from './provider-call-options.js';

export type { ProviderCallOptions } from './provider-call-options.js';

/** What an entry is, observed without following links. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One listed entry: `sizeBytes` is an integer for regular files only; `modifiedAt` is ISO 8601 UTC. */
export interface DirectoryEntry {
  readonly name: string;
  readonly path: WorkspacePath;
  readonly kind: EntryKind;
  readonly sizeBytes: number | null;
  readonly modifiedAt: string;
}

/** What `stat` observed at a path: an entry kind, or `missing`. */
export interface PathStatus {
  readonly kind: EntryKind | 'missing';
  readonly sizeBytes: number | null;
  readonly modifiedAt: string | null;
  /**
   * A regular file's permission bits (`0o777` at most), for a provider that keeps modes; absent or
   * null otherwise. The overlay reads it to carry a mode with the bytes (docs/overlay.md, "Modes").
   */
  readonly mode?: number | null;
}

/** Options of `stat`. */
export interface StatOptions extends ProviderCallOptions {}

/** Options of `listDirectory`. */
export interface ListDirectoryOptions extends ProviderCallOptions {
  /** Return at most this many entries, the smallest names in code-point order. */
  readonly limit: number;
}

/** What `listDirectory` returns: entries in code-point order of their names. */
export interface DirectoryListing {
  readonly entries: readonly DirectoryEntry[];
  /** True when the directory holds more than `limit` entries. */
  readonly truncated: boolean;
}

/** Options of `readFile`. */
export interface ReadFileOptions extends ProviderCallOptions {
  /** Read at most this many bytes from byte 0. */
  readonly maxBytes: number;
}

/** What `readFile` returns: a prefix of the file, and whether the file holds more. */
export interface FileRead {
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
}

/** Options of `writeFile`. */
export interface WriteFileOptions extends ProviderCallOptions {
  /** False: fail with `already_exists` if anything exists at the path, decided by exclusive creation. */
  readonly overwrite: boolean;
  /**
   * `missing`: the file must not exist; 64 lowercase hex: the current bytes must hash (SHA-256) to it.
   * Checked on the file about to be replaced, just before the replace; `content_conflict` otherwise.
   * When `overwrite: false` and this both refuse an existing regular file, `already_exists` wins:
   * existence is decided first, so the answer never depends on the file's bytes.
   */
  readonly expectedSha256?: string;
  /**
   * Permission bits (an integer from 0 to `0o777`; anything else is `invalid_arguments`, nothing
   * touched) the written file ends with, whether the call creates it or replaces one: the bytes and
   * their mode arrive together, atomically, so the file is never visible with wider permissions, not
   * even for an instant. Absent: a new file gets the provider's default, a replaced one keeps its mode.
   */
  readonly mode?: number;
}

/** Options of `rename`. */
export interface RenameOptions extends ProviderCallOptions {
  /**
   * False: anything at `to` (even a dangling link) fails with `already_exists`, decided atomically;
   * true: a regular single-link file at `to` is replaced.
   */
  readonly overwrite: boolean;
}

/** Options of `appendFile`. */
export interface AppendFileOptions extends ProviderCallOptions {
  /** True: a missing file is created whole (exclusive creation, missing parents made); false: `not_found`. */
  readonly create: boolean;
  /**
   * The size the file must have at the moment of the append, decided atomically with it (a missing
   * file counts as size 0 when `create` is true); `content_conflict` otherwise, nothing written.
   */
  readonly expectedSizeBytes?: number;
  /**
   * Bytes written before `bytes` only when the file is empty or created by this call, decided
   * atomically with the append (a byte-order mark), so a non-empty file never gets them.
   */
  readonly emptyFilePrefix?: Uint8Array;
}

/** What `appendFile` did: the bytes it added (a prefix included), the size after, and whether it created the file. */
export interface FileAppend {
  readonly bytesAppended: number;
  readonly sizeBytes: number;
  readonly created: boolean;
}

/** Options of `copyFile`. */
export interface CopyFileOptions extends ProviderCallOptions {
  /** False: anything at `to` fails with `already_exists`, decided atomically; true: a regular single-link file at `to` is replaced. */
  readonly overwrite: boolean;
}

/** Options of `readFileRange`. */
export interface ReadFileRangeOptions extends ProviderCallOptions {
  /** Where the range starts, in bytes from the start of the file; with `fromEnd`, where it ends, in bytes back from the end. */
  readonly offset: number;
  /** Count `offset` back from the end of the file, so a tail needs no size first. */
  readonly fromEnd?: boolean;
  /** Read at most this many bytes. */
  readonly maxBytes: number;
}

/** What `readFileRange` returns: the bytes, where they start in the file, and the file's size when read. */
export interface FileRangeRead {
  readonly bytes: Uint8Array;
  /** The absolute byte offset of `bytes[0]`. */
  readonly offset: number;
  readonly sizeBytes: number;
}

/** Options of `makeDirectory`. */
export interface MakeDirectoryOptions extends ProviderCallOptions {
  /** Create missing parents too; else a missing parent is `not_found`. */
  readonly parents: boolean;
  /** An existing directory is success (`created: false`); else `already_exists`. */
  readonly existOk: boolean;
}

/** Options of `deleteFile`. */
export interface DeleteFileOptions extends ProviderCallOptions {
  /** A missing file is success (`deleted: false`); else `not_found`. */
  readonly missingOk: boolean;
}

/** Options of `deleteDirectory`. */
export interface DeleteDirectoryOptions extends ProviderCallOptions {
  /** Delete the whole tree bottom-up, unlinking links without following them. */
  readonly recursive: boolean;
  /** A missing directory is success (`deleted: false`); else `not_found`. */
  readonly missingOk: boolean;
}

/**
 * The host-effect layer under the tools: bytes and entries only, never text, bounds or authority.
 * Paths arrive canonical (core made them); a provider resolves them without ever following a link.
 * Every method throws a LibosError on failure (build them with `providerErrors`, so messages and
 * `details` match every other provider); a host error it cannot classify is `provider_failure`.
 * A LibosError's `effect` defaults to `none` (nothing changed, guaranteed), except for
 * `provider_failure`, whose default is `unknown`: pass `effect: 'unknown'` for any failure after a
 * change began (a parent made, an entry removed), and `effect: 'none'` to a `provider_failure`
 * only when the provider knows it changed nothing.
 * Common to every method: a link or a mount point as any component is `symlink_refused`, a
 * non-directory before the last component is `not_a_directory`, a missing one before the last is
 * `not_found`; an aborted `options.signal` is `provider_failure` (see `ProviderCallOptions`).
 */
export interface FileSystemProviderV1 {
  readonly specificationVersion: 'v1';
  /** A short name for messages and benchmarks, e.g. `memfs` or `local`. */
  readonly name: string;
  readonly capabilities: ProviderCapabilities;
  /**
   * The most file bytes the provider lets its workspace hold, refusing a write, append or copy past
   * it with `quota_exceeded`; absent when it keeps no quota of its own (a disk is bounded by its
   * disk). The runtime refuses a config whose `bounds.workspace_max_bytes` it does not enforce.
   */
  readonly workspaceMaxBytes?: number;

  /** Observes the kind at a path; a link as the last component is reported as kind `symlink`. */
  stat(path: WorkspacePath, options?: StatOptions): Promise<PathStatus>;

  /**
   * Lists one level in code-point order of names, keeping memory O(limit).
   * Throws `not_found`, `not_a_directory` (also for any non-directory target), `symlink_refused`.
   */
  listDirectory(path: WorkspacePath, options: ListDirectoryOptions): Promise<DirectoryListing>;

  /**
   * Reads a prefix of a regular file, never more than `maxBytes + 1` bytes from the host.
   * Throws `not_found`, `not_a_file` (directories and kind `other`), `symlink_refused`, `hard_link_refused`.
   */
  readFile(path: WorkspacePath, options: ReadFileOptions): Promise<FileRead>;

  /**
   * Replaces (or creates) a whole file atomically and durably, creating missing parents and keeping
   * an existing file's mode bits unless `mode` is given. Throws `invalid_arguments` (a bad `mode`,
   * checked before anything is touched, as `checkFileMode` does), `already_exists`, `not_a_file`,
   * `symlink_refused`, `hard_link_refused`, `content_conflict`, `not_a_directory`.
   */
  writeFile(path: WorkspacePath, bytes: Uint8Array, options: WriteFileOptions): Promise<{ readonly created: boolean }>;

  /**
   * Creates a directory; `created` describes the final directory only. Throws `already_exists`,
   * `not_a_directory` (a non-directory at the path), `not_found` (missing parent without `parents`).
   */
  makeDirectory(path: WorkspacePath, options: MakeDirectoryOptions): Promise<{ readonly created: boolean }>;

  /**
   * Deletes one regular file. Throws `not_found`, `not_a_file` (a directory or kind `other`),
   * `symlink_refused`, `hard_link_refused`.
   */
  deleteFile(path: WorkspacePath, options: DeleteFileOptions): Promise<{ readonly deleted: boolean }>;

  /**
   * Deletes a directory. Throws `not_found`, `not_a_directory`, `symlink_refused`, `directory_not_empty`;
   * recursive: `protected_path` before deleting anything when the tree holds a `.git` alias, and
   * `protected_path` with effect `unknown` when one appears midway; a partial failure has effect `unknown`.
   */
  deleteDirectory(path: WorkspacePath, options: DeleteDirectoryOptions): Promise<{ readonly deleted: boolean }>;

  /**
   * Moves one regular single-link file to `to` in one atomic step, creating missing parents of `to`;
   * `replaced` tells whether a file at `to` was replaced. Optional: a provider without it cannot
   * serve `move_file`. Throws `not_found`, `not_a_file` (a directory or kind `other` on either side),
   * `symlink_refused` (a link on either side), `hard_link_refused`, `already_exists`, `not_a_directory`.
   */
  rename?(from: WorkspacePath, to: WorkspacePath, options: RenameOptions): Promise<{ readonly replaced: boolean }>;

  /**
   * Adds bytes at the end of one regular single-link file without reading or copying what it
   * holds, and makes them durable before it returns; a failure midway may leave a prefix of them
   * (effect `unknown`). The file keeps its mode. Optional: a provider without it cannot serve
   * `append_text_file`. Throws `not_found` (without `create`), `not_a_file`, `symlink_refused`,
   * `hard_link_refused`, `content_conflict` (`expectedSizeBytes`), `not_a_directory`.
   */
  appendFile?(path: WorkspacePath, bytes: Uint8Array, options: AppendFileOptions): Promise<FileAppend>;

  /**
   * Copies one regular single-link file to `to`, creating missing parents of `to`; the copy appears
   * whole (atomic creation, or an atomic replace with `overwrite`), durably, with the source's mode
   * bits. Optional: a provider without it cannot serve `copy_file`. Throws `not_found`,
   * `not_a_file` (a directory or kind `other` on either side), `symlink_refused`, `hard_link_refused`
   * (the source, or the file to replace), `already_exists`, `not_a_directory`.
   */
  copyFile?(from: WorkspacePath, to: WorkspacePath, options: CopyFileOptions): Promise<{ readonly bytesCopied: number; readonly replaced: boolean }>;

  /**
   * Reads at most `maxBytes` bytes of a regular file at an offset, or ending `offset` bytes before
   * its end, reading from the host only those bytes (a tail of a huge file costs the tail). An
   * offset past the end gives no bytes. Optional: without it the tools read prefixes only. Throws
   * what `readFile` throws.
   */
  readFileRange?(path: WorkspacePath, options: ReadFileRangeOptions): Promise<FileRangeRead>;

  /**
   * Opens a directory to walk it through a `DirectoryHandle`; optional (a walk then resolves each
   * path from the root). Throws `not_found`, `not_a_directory`, `symlink_refused`, as `listDirectory`.
   */
  openDirectory?(path: WorkspacePath, options?: ProviderCallOptions): Promise<DirectoryHandle>;

  /**
   * Judges `path` by this provider's own naming rules (a name it reserves for itself) without
   * touching anything: throws the error a call naming the path would get (`protected_path` when
   * `creates`, as for a write or a new directory there; `not_found` otherwise), and returns when no
   * rule refuses it. Optional: a layer that records changes to make through this provider later
   * (the overlay) asks first, so it never accepts a change the provider would refuse. `removes`: the
   * path names an existing directory about to be deleted; a provider that never removes it (a
   * mount point) throws `root_refused`.
   */
  checkPath?(path: WorkspacePath, options: { readonly creates: boolean; readonly removes?: boolean }): void;

  /**
   * The tree below a directory in one answer, the files that may hold a search marked (`TreeSearchQuery`);
   * optional, the tools then walk it directory by directory. Throws what `listDirectory(path)` throws.
   */
  searchTree?(path: WorkspacePath, query: TreeSearchQuery): Promise<TreeSearchAnswer>;

  /** The host directory of a workspace directory, for spawning subprocesses; only real-disk providers have one. */
  hostPath?(path: WorkspacePath): string;

  /** Releases what the provider holds (fds, volumes); later calls fail with `provider_failure`. */
  close(): Promise<void>;
}
