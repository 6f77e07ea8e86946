import { closeSync, fchmodSync, fstatSync, linkSync, lstatSync, openSync, renameSync, unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { CREATE_EXCLUSIVE } from './host-flags.js';
import { flush, writeAll } from './host-io.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { mountRefusal } from './mount-id.js';
import type { OperationContext } from './operation-context.js';

/** The mode bits `fchmod` can set, as `stat().mode` reports them. */
const MODE_BITS = 0o7777;

/**
 * A temporary file in the staging directory, written and being flushed. Its name is reserved (no
 * tool can reach it); before that inode gets the target's name, its name is checked to still hold
 * the very inode this call wrote. The flush runs in the thread pool while the caller readies the
 * rename (`flushed` waits for it), and the fd is closed only once that flush is over, so its
 * number can never be reused under it.
 */
export class StagedFile {
  private constructor(
    private readonly context: OperationContext,
    private readonly stagingFd: number,
    private readonly name: string,
    private readonly fd: number,
    private readonly status: Stats,
    private readonly size: number,
    // Settles with the flush's error, or undefined: never rejects, so no failure goes unhandled.
    private readonly flushing: Promise<unknown>,
  ) {}

  private published = false;
  private durable = false;
  private closed = false;

  /**
   * Creates a temporary holding `bytes`, with permission bits `mode` (or a new file's default, 0666
   * less the umask, when null), and starts flushing it to stable storage.
   */
  static begin(context: OperationContext, bytes: Uint8Array, mode: number | null, path: WorkspacePath): StagedFile {
    return StagedFile.beginWith(context, mode, path, (fd) => (writeAll(fd, bytes), bytes.length));
  }

  /**
   * `begin` for content that `fill` writes itself into the temporary's fd (a copy streamed from
   * another file, so its size never has to fit in memory); `fill` returns the bytes it wrote.
   */
  static beginWith(context: OperationContext, mode: number | null, path: WorkspacePath, fill: (fd: number) => number): StagedFile {
    // Created with the wanted mode, so the umask is the only reason for a chmod: the staging
    // directory is owner-only, so no mode of a temporary is ever within another user's reach.
    const { fd, stagingFd, name } = createTemporary(context, path, mode ?? 0o666);
    let status: Stats | undefined;
    let size: number;
    try {
      status = fstatSync(fd);
      if (mode !== null && (status.mode & MODE_BITS) !== mode) fchmodSync(fd, mode);
      size = fill(fd);
    } catch (error) {
      if (status !== undefined) removeIfSame(context.paths.named(stagingFd, name), status);
      closeSync(fd);
      throw mapNodeError(error, path);
    }
    const flushing = flush(fd).then(
      () => undefined,
      (error: unknown) => error ?? new Error('fsync failed'),
    );
    return new StagedFile(context, stagingFd, name, fd, status, size, flushing);
  }

  /** Waits until every byte and the mode are on stable storage; fails as the host failed the flush. */
  async flushed(path: WorkspacePath): Promise<void> {
    const error = await this.flushing;
    if (error !== undefined) throw mapNodeError(error, path);
    this.durable = true;
  }

  /**
   * Renames the temporary over `target` (an fd path inside the pinned parent), replacing whatever
   * entry is there; rename replaces a name and never writes through a link.
   */
  replace(target: string, path: WorkspacePath): void {
    this.verify(path);
    try {
      renameSync(this.at(), target);
    } catch (error) {
      // The name is a mount point (a file bind-mounted there): never replaced.
      if (hostCode(error) === 'EBUSY') throw mountRefusal(path);
      throw error;
    }
    this.published = true;
  }

  /**
   * Gives the temporary the name `target` with link(), which fails on any existing entry (a racing
   * creator's file survives: EEXIST), then drops the temporary's own name. The new name appears with
   * every byte already in place. Returns false when something exists at `target`.
   */
  create(target: string, path: WorkspacePath): boolean {
    this.verify(path);
    try {
      linkSync(this.at(), target);
    } catch (error) {
      if (hostCode(error) === 'EEXIST') return false;
      throw error;
    }
    this.published = true;
    try {
      unlinkSync(this.at());
    } catch (error) {
      // The file is in place; its staging name stays until a sweep removes it, and the target keeps
      // a second link meanwhile, which the write reports as an unknown effect.
      throw mapNodeError(error, path, 'unknown');
    }
    return true;
  }

  /**
   * Removes the temporary if it is still there and still ours, waits for its flush to end and closes
   * it. Idempotent.
   */
  async discard(): Promise<void> {
    if (!this.published) removeIfSame(this.at(), this.status);
    await this.flushing;
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private at(): string {
    return this.context.paths.named(this.stagingFd, this.name);
  }

  // The name must still hold the inode written, with one link and every byte: a swapped, linked,
  // truncated or extended temporary is never published. One lstat of the name says it all: when it
  // names this inode, its link count and size are this inode's.
  private verify(path: WorkspacePath): void {
    if (!this.durable) throw new Error('StagedFile: published before its flush ended');
    let named: Stats | null = null;
    try {
      named = lstatSync(this.at());
    } catch {
      // Gone: refused below.
    }
    const intact = named?.isFile() && named.dev === this.status.dev && named.ino === this.status.ino && named.nlink === 1 && named.size === this.size;
    if (!intact) {
      // Another process changed the staged copy before it was put in place.
      throw providerErrors.changedDuringOperation(path);
    }
  }
}

function createTemporary(context: OperationContext, path: WorkspacePath, mode: number): { fd: number; stagingFd: number; name: string } {
  let failed: number | undefined;
  for (let attempt = 0; ; attempt++) {
    const stagingFd = context.staging.fd(failed);
    const name = context.staging.nextName();
    try {
      return { fd: openSync(context.paths.named(stagingFd, name), CREATE_EXCLUSIVE, mode), stagingFd, name };
    } catch (error) {
      // A host process removed the staging directory: make it again, once.
      if (hostCode(error) === 'ENOENT' && attempt === 0) {
        failed = stagingFd;
        continue;
      }
      throw mapNodeError(error, path);
    }
  }
}

function removeIfSame(hostPath: string, status: Stats): void {
  try {
    const now = lstatSync(hostPath);
    if (now.dev === status.dev && now.ino === status.ino) unlinkSync(hostPath);
  } catch {
    // Gone already, or the host refuses: a leftover in the staging directory is swept at next start.
  }
}
