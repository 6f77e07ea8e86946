import { closeSync, fchmodSync, fstatSync, linkSync, lstatSync, openSync, renameSync, unlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { CREATE_EXCLUSIVE } from './host-flags.js';
import { flush, writeAll } from './host-io.js';
import { hostCode, mapNodeError } from './map-node-error.js';
import { mountRefusal } from './mount-id.js';
import type { OperationContext } from './operation-context.js';

/**
 * A finished temporary file in the staging directory: written, given its mode and flushed. Its
 * name is reserved (no tool can reach it); `publish` still checks, on the name, that it holds the
 * very inode this call wrote, before that inode gets the target's name.
 */
export class StagedFile {
  private constructor(
    private readonly context: OperationContext,
    private readonly stagingFd: number,
    private readonly name: string,
    private readonly fd: number,
    private readonly status: Stats,
    private readonly size: number,
  ) {}

  private published = false;

  /**
   * Creates, writes and flushes a temporary holding `bytes`, with permission bits `mode`, or with a
   * new file's default (0666 less the umask) when `mode` is null.
   */
  static async write(context: OperationContext, bytes: Uint8Array, mode: number | null, path: WorkspacePath): Promise<StagedFile> {
    context.staging.ready();
    const { fd, stagingFd, name } = createTemporary(context, path, mode === null ? 0o666 : 0o600);
    try {
      writeAll(fd, bytes);
      if (mode !== null) fchmodSync(fd, mode);
      await flush(fd);
      return new StagedFile(context, stagingFd, name, fd, fstatSync(fd), bytes.length);
    } catch (error) {
      removeIfSame(context.paths.named(stagingFd, name), fstatSync(fd));
      closeSync(fd);
      throw mapNodeError(error, path);
    }
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

  /** Removes the temporary if it is still there and still ours, and closes it. Idempotent. */
  discard(): void {
    if (!this.published) removeIfSame(this.at(), this.status);
    this.close();
  }

  /** Closes the written fd (the name is already gone or published). */
  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }

  private at(): string {
    return this.context.paths.named(this.stagingFd, this.name);
  }

  // The name must still hold the inode written, with one link and every byte: a swapped, linked,
  // truncated or extended temporary is never published.
  private verify(path: WorkspacePath): void {
    const written = fstatSync(this.fd);
    let named: Stats | null = null;
    try {
      named = lstatSync(this.at());
    } catch {
      // Gone: refused below.
    }
    const intact =
      named?.isFile() &&
      named.dev === this.status.dev &&
      named.ino === this.status.ino &&
      named.nlink === 1 &&
      written.nlink === 1 &&
      written.size === this.size;
    if (!intact) {
      // Another process changed the staged copy before it was put in place.
      throw providerErrors.changedDuringOperation(path);
    }
  }
}

// The staging directory is owner-only, so even a 0666 temporary is out of every other user's reach.
function createTemporary(context: OperationContext, path: WorkspacePath, mode: number): { fd: number; stagingFd: number; name: string } {
  for (let attempt = 0; ; attempt++) {
    const stagingFd = context.staging.fd(attempt > 0);
    const name = context.staging.nextName();
    try {
      return { fd: openSync(context.paths.named(stagingFd, name), CREATE_EXCLUSIVE, mode), stagingFd, name };
    } catch (error) {
      // A host process removed the staging directory: make it again, once.
      if (hostCode(error) === 'ENOENT' && attempt === 0) continue;
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
