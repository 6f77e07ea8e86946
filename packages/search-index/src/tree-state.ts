import { isPathWithin, type DirectoryEntry, type WorkspacePath } from '@libos/core';

/** What the index knows of one regular file: how it stood when read, and its trigram filter. */
export interface IndexedFile {
  /** Size, modification time and (on disk) inode and change time in nanoseconds, as one string. */
  readonly stamp: string;
  /** Change time in milliseconds (the modification time where the host has none to give). */
  readonly changedAtMs: number;
  /** Wall-clock milliseconds just before its bytes were read. */
  readonly indexedAtMs: number;
  /** Null when the provider refused the read: such a file is always a candidate. */
  readonly filter: Uint8Array | null;
  /** Whether the file held more than the bytes indexed. */
  readonly truncated: boolean;
}

/**
 * The tree as the index holds it: each directory's listing as the provider gave it, and each
 * regular file's filter. A directory is in `directories` only once listed in full; one the provider
 * would not list (another mount, a refusal) is listed by its parent and never entered.
 */
export class TreeState {
  readonly directories = new Map<WorkspacePath, Map<string, DirectoryEntry>>();
  readonly files = new Map<WorkspacePath, IndexedFile>();
  /** Directories whose listing was cut at the index's limit: a search below them is walked instead. */
  readonly truncated = new Set<WorkspacePath>();

  /** Forgets `path` and everything below it; returns the directories forgotten (to stop watching). */
  forget(path: WorkspacePath): WorkspacePath[] {
    this.files.delete(path);
    const gone: WorkspacePath[] = [];
    if (!this.directories.has(path)) return gone;
    for (const directory of [...this.directories.keys()]) {
      if (!isPathWithin(directory, path)) continue;
      for (const entry of this.directories.get(directory)!.values()) this.files.delete(entry.path);
      this.directories.delete(directory);
      this.truncated.delete(directory);
      gone.push(directory);
    }
    return gone;
  }

  /** Bytes of the files' filters, and the sizes of the files they index. */
  measure(): { filterBytes: number; treeBytes: number } {
    let filterBytes = 0;
    let treeBytes = 0;
    for (const listing of this.directories.values()) {
      for (const entry of listing.values()) if (entry.kind === 'file') treeBytes += entry.sizeBytes ?? 0;
    }
    for (const file of this.files.values()) filterBytes += file.filter?.length ?? 0;
    return { filterBytes, treeBytes };
  }
}
