import { type FSWatcher, unlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePath } from '@libos/core';

/** How long a barrier waits for its own event before the watcher is judged to have lost events. */
const BARRIER_MS = 2_000;

/** A change the host reported: a name changed in a directory (null when the host did not say which). */
export type HostChange = (directory: WorkspacePath, name: string | null) => void;

/**
 * One inotify watch per directory of the tree (Node's `fs.watch`, not recursive: a directory is
 * watched before it is listed, so nothing created in it is missed), plus one on the index's own
 * directory for barriers. libuv reads every watch of the process through one inotify descriptor,
 * whose events come in the order they happened: once a file the barrier creates in the index
 * directory is reported, every change made before the barrier began has been reported too.
 */
export class HostWatcher {
  private readonly watchers = new Map<WorkspacePath, FSWatcher>();
  private readonly waiting = new Map<string, () => void>();
  private readonly own: FSWatcher;
  private count = 0;
  /** False once a watch failed (the host's limit, an error): every search then checks the whole tree. */
  healthy = true;

  constructor(
    private readonly indexDirectory: string,
    private readonly onChange: HostChange,
  ) {
    this.own = watch(indexDirectory, { persistent: false }, (_event, name) => {
      if (typeof name === 'string') this.waiting.get(name)?.();
    });
    this.own.on('error', () => {
      this.healthy = false;
    });
  }

  /** Watches the host directory `host` of the workspace directory `path` (again, if it was: it may be another inode now). */
  watch(path: WorkspacePath, host: string): void {
    this.unwatch([path]);
    if (!this.healthy) return;
    try {
      const watcher = watch(host, { persistent: false }, (_event, name) => this.onChange(path, typeof name === 'string' ? name : null));
      watcher.on('error', () => this.onChange(path, null));
      this.watchers.set(path, watcher);
    } catch {
      this.healthy = false;
    }
  }

  unwatch(paths: readonly WorkspacePath[]): void {
    for (const path of paths) {
      this.watchers.get(path)?.close();
      this.watchers.delete(path);
    }
  }

  /**
   * Resolves true once every change made before the call has reached `onChange`; false when the
   * barrier's own event never came (then changes may have been lost, and the caller checks all).
   */
  async barrier(): Promise<boolean> {
    if (!this.healthy) return false;
    const name = `barrier-${process.pid}-${this.count++}`;
    const file = join(this.indexDirectory, name);
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_MS);
      this.waiting.set(name, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      writeFileSync(file, '');
    } catch {
      this.waiting.delete(name);
      return false;
    }
    const ok = await seen;
    this.waiting.delete(name);
    try {
      unlinkSync(file);
    } catch {
      // Another process cleaning the directory: the barrier was seen either way.
    }
    return ok;
  }

  close(): void {
    this.unwatch([...this.watchers.keys()]);
    this.own.close();
  }
}
