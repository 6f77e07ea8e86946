import { closeSync, fstatSync, openSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { baseName, pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { REOPEN_FILE } from './host-flags.js';
import { mapNodeError } from './map-node-error.js';
import { refuseOtherMount } from './mount-id.js';
import type { OperationContext } from './operation-context.js';
import { probeEntry, requireSingleFile, settledStatus } from './probe-entry.js';
import { walk } from './walk.js';

/** A regular single-link file opened for reading, with its status from the opened fd. */
export interface OpenedFile {
  readonly fd: number;
  readonly status: Stats;
}

/**
 * Opens a regular file for reading as `readFile` does: the leaf is probed with an O_PATH handle,
 * checked (kind, links, mount) on that handle, and reopened through its magic link, so the fd read
 * is the inode checked. `use` runs while the fd is open; the fd is closed after it settles.
 */
export async function withRegularFile<T>(context: OperationContext, path: WorkspacePath, use: (file: OpenedFile) => T | Promise<T>): Promise<T> {
  const segments = pathSegments(path);
  if (segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  const { directory } = walk(context, segments.slice(0, -1));
  let fd: number;
  try {
    const probe = probeEntry(context, directory.fd, baseName(path), path);
    if (probe === null) throw providerErrors.notFound(path);
    try {
      requireSingleFile(await settledStatus(probe), path);
      refuseOtherMount(context, probe.fd, path);
      try {
        fd = openSync(context.paths.of(probe.fd), REOPEN_FILE);
      } catch (error) {
        throw mapNodeError(error, path);
      }
    } finally {
      closeSync(probe.fd);
    }
  } finally {
    directory.release();
  }
  try {
    let status: Stats;
    try {
      status = fstatSync(fd);
    } catch (error) {
      throw mapNodeError(error, path);
    }
    requireSingleFile(status, path);
    return await use({ fd, status });
  } finally {
    closeSync(fd);
  }
}
