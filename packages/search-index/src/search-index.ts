import { lstatSync, mkdirSync } from 'node:fs';
import { ROOT_PATH, parentPath, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { HostWatcher } from './host-watcher.js';
import { type ScanContext, scanDirectory } from './scan-directory.js';
import { loadSnapshot, saveSnapshot } from './snapshot-file.js';
import { TreeState } from './tree-state.js';

/** How long after a change the snapshot is saved (changes within it share one write). */
const SAVE_DELAY_MS = 2_000;

/** What the index holds, against the tree it indexes. */
export interface SearchIndexStats {
  readonly files: number;
  readonly directories: number;
  /** Sum of the indexed files' sizes. */
  readonly treeBytes: number;
  /** Bytes of the trigram filters in memory. */
  readonly filterBytes: number;
  /** Size of the last snapshot written or loaded (0 before the first). */
  readonly snapshotBytes: number;
  /** How the index opened: from a snapshot checked against the tree, or built from nothing. */
  readonly opened: 'loaded' | 'built' | 'not yet';
  /** Whether host changes are watched (else every search checks every stamp of the tree). */
  readonly watching: boolean;
}

/**
 * The index's state and how it is kept true. Before a search is answered, `refresh` makes the
 * index agree with the provider as it stood when the search began: libOS's own writes and (on a
 * host disk) every change the watcher reported before a barrier are listed and read again; when
 * the index opens, or the watcher may have missed changes, every directory is listed again and
 * every file whose stamp moved is read again.
 */
export class SearchIndex {
  private state = new TreeState();
  private watcher: HostWatcher | undefined;
  private readonly host: string | undefined;
  private readonly changed = new Map<WorkspacePath, Set<WorkspacePath> | 'all'>();
  private whole = true;
  private opened: SearchIndexStats['opened'] = 'not yet';
  private snapshotBytes = 0;
  private unsaved = false;
  private saveTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private context: ScanContext | undefined;

  constructor(
    private readonly provider: FileSystemProviderV1,
    private readonly directory: string,
    readonly indexedBytes: number,
  ) {
    this.host = provider.hostPath?.(ROOT_PATH);
  }

  /** Notes that libOS itself changed `path` (or tried to: a failed write may have done part). */
  noteWritten(path: WorkspacePath): void {
    let child = path;
    let parent = parentPath(path);
    // The nearest directory the index holds lists the change again; anything new below it is scanned.
    while (parent !== null && !this.state.directories.has(parent)) {
      child = parent;
      parent = parentPath(parent);
    }
    if (parent === null) this.whole = true;
    else this.note(parent, child);
  }

  /**
   * Brings the index up to date with everything that happened before the call, then runs `use` on
   * it before any other refresh starts: a scan in progress has new listings with files not yet
   * read again, which no answer may see.
   */
  refresh<Result>(use: (tree: TreeState) => Result): Promise<Result> {
    const run = this.queue.then(async () => {
      await this.refreshNow();
      return use(this.state);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  stats(): SearchIndexStats {
    const { filterBytes, treeBytes } = this.state.measure();
    return {
      files: this.state.files.size,
      directories: this.state.directories.size,
      treeBytes,
      filterBytes,
      snapshotBytes: this.snapshotBytes,
      opened: this.opened,
      watching: this.watcher?.healthy ?? false,
    };
  }

  /** Writes the snapshot now (an index of a provider without a host directory keeps none). */
  save(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.host === undefined || !this.unsaved) return;
    this.unsaved = false;
    this.snapshotBytes = saveSnapshot(this.directory, this.workspaceIdentity(), this.state);
  }

  /** Saves and stops watching; a second call does nothing, and a search after it starts over from a full check. */
  close(): void {
    try {
      this.save();
    } finally {
      this.watcher?.close();
      this.watcher = undefined;
      this.context = undefined;
      this.opened = 'not yet';
    }
  }

  private async refreshNow(): Promise<void> {
    this.context ??= this.open();
    const context = this.context;
    if (this.watcher !== undefined && !(await this.watcher.barrier())) this.whole = true;
    // A disk no watcher follows: only listing everything again is sure.
    if (this.host !== undefined && this.watcher?.healthy !== true) this.whole = true;
    const whole = this.whole;
    const changed = [...this.changed];
    this.whole = false;
    this.changed.clear();
    if (!whole && changed.length === 0) return;
    this.unsaved = true;
    try {
      if (whole) await scanDirectory(context, ROOT_PATH, true);
      else {
        for (const [directory, names] of changed) {
          if (!this.state.directories.has(directory)) continue;
          await scanDirectory(context, directory, false, names);
        }
      }
    } catch (error) {
      // Half done: the next search starts over from a full check.
      this.whole = true;
      throw error;
    }
    this.saveTimer ??= setTimeout(() => this.save(), SAVE_DELAY_MS).unref();
  }

  private open(): ScanContext {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    if (this.host !== undefined) {
      const loaded = loadSnapshot(this.directory, this.workspaceIdentity());
      if (loaded !== null) {
        this.state = loaded.state;
        this.snapshotBytes = loaded.bytes;
      }
      this.opened = loaded === null ? 'built' : 'loaded';
      try {
        this.watcher = new HostWatcher(this.directory, (path, name) => this.noteHost(path, name));
      } catch {
        this.watcher = undefined;
      }
    } else this.opened = 'built';
    this.whole = true;
    return {
      provider: this.provider,
      state: this.state,
      maxBytes: this.indexedBytes,
      beforeListing: (path) => this.beforeListing(path),
      afterForget: (paths) => this.watcher?.unwatch(paths),
    };
  }

  private beforeListing(path: WorkspacePath): string | undefined {
    if (this.host === undefined) return undefined;
    let host: string;
    try {
      host = this.provider.hostPath!(path);
    } catch {
      return undefined;
    }
    this.watcher?.watch(path, host);
    return host;
  }

  private noteHost(directory: WorkspacePath, name: string | null): void {
    if (name === null) {
      this.changed.set(directory, 'all');
      return;
    }
    this.note(directory, (directory === ROOT_PATH ? name : `${directory}/${name}`) as WorkspacePath);
  }

  private note(directory: WorkspacePath, child: WorkspacePath): void {
    const names = this.changed.get(directory);
    if (names === 'all') return;
    if (names === undefined) this.changed.set(directory, new Set([child]));
    else names.add(child);
  }

  // The host root's path and inode: a snapshot saved for another tree is never read as this one's.
  private workspaceIdentity(): string {
    const status = lstatSync(this.host!, { bigint: true });
    return `${this.host}|${status.dev}|${status.ino}`;
  }
}
