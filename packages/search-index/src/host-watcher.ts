import { type FSWatcher, readFileSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePath } from '@libos/core';

/** How long a barrier waits for its own event before the watcher is judged to have lost events. */
const BARRIER_MS = 2_000;

/**
 * The kernel's bound on unread inotify events (`fs.inotify.max_queued_events`); past it events are
 * dropped, and libuv does not pass the overflow notice on. The kernel's default when unreadable.
 */
function queueBound(): number {
  try {
    const bound = Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
    return Number.isSafeInteger(bound) && bound > 0 ? bound : 16_384;
  } catch {
    return 16_384;
  }
}

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
  /** Events reported since the last barrier's own: the queue can only have overflowed if they reach its bound. */
  private sinceBarrier = 0;
  private overflowed = false;
  private readonly bound = queueBound();
  /** False once a watch failed (the host's limit, an error): every search then checks the whole tree. */
  healthy = true;

  constructor(
    private readonly indexDirectory: string,
    private readonly onChange: HostChange,
  ) {
    this.own = watch(indexDirectory, { persistent: false }, (_event, name) => {
      const waiting = typeof name === 'string' ? this.waiting.get(name) : undefined;
      if (waiting === undefined) {
        this.sinceBarrier++;
        return;
      }
      // Every event queued after the last barrier's came before this one. Had the queue overflowed
      // in between, it held its bound of them at once, all reported since (only later ones drop).
      this.overflowed = this.sinceBarrier >= this.bound;
      this.sinceBarrier = 0;
      waiting();
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
      const watcher = watch(host, { persistent: false }, (_event, name) => {
        this.sinceBarrier++;
        this.onChange(path, typeof name === 'string' ? name : null);
      });
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
   * barrier's own event never came, or so many came before it that the kernel's queue may have
   * overflowed (then changes may have been lost, and the caller checks all).
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
    const ok = (await seen) && !this.overflowed;
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
