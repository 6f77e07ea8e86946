import { closeSync, openSync } from 'node:fs';
import type { WorkspacePath } from '@libos/core';
import { REOPEN_DIRECTORY } from './host-flags.js';
import { flush } from './host-io.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';

/**
 * The flush of a pinned directory that makes a rename or link inside it durable, split in three so
 * that only the fsync itself is on a write's path: the handle is opened while the file's bytes
 * flush, the fsync starts right after the change, and it is waited for once the name lock is given
 * up. The fd is closed only after its fsync has ended, so its number is never reused under it.
 */
export class DirectoryFlush {
  private flushing: Promise<unknown> | undefined;
  private closed = false;

  private constructor(
    private readonly fd: number | null,
    private readonly owned: boolean,
  ) {}

  /**
   * The root is held open for reading already; any other pinned directory is an O_PATH handle,
   * which fsync refuses, so it is reopened through its magic link. A directory the provider may
   * write but not read (mode 0o333 for a non-root user) cannot be opened to fsync: the file's own
   * bytes are flushed anyway, so the write stands rather than failing for it.
   */
  static open(context: OperationContext, directoryFd: number): DirectoryFlush {
    if (directoryFd === context.root.fd) return new DirectoryFlush(directoryFd, false);
    try {
      return new DirectoryFlush(openSync(context.paths.of(directoryFd), REOPEN_DIRECTORY), true);
    } catch (error) {
      if (hostCode(error) === 'EACCES') return new DirectoryFlush(null, false);
      throw error;
    }
  }

  /** Starts the fsync in the thread pool; call once the directory entry has changed. */
  start(): void {
    if (this.fd === null || this.flushing !== undefined) return;
    this.flushing = flush(this.fd).then(
      () => undefined,
      (error: unknown) => error ?? new Error('fsync failed'),
    );
  }

  /** Waits for the fsync started; a failure comes after the change, so its effect is unknown. */
  async finished(path: WorkspacePath): Promise<void> {
    const error = await this.flushing;
    if (error !== undefined) throw mapNodeError(error, path, 'unknown');
  }

  /** Closes the reopened handle once no fsync uses it. Idempotent. */
  async close(): Promise<void> {
    await this.flushing;
    if (this.closed || !this.owned || this.fd === null) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
