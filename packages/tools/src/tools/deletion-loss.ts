import type { DeletionLoss, FileSystemProviderV1, WorkspacePath } from '@libos/core';

/** The most entries counted for an approver before the count says "at least". */
export const LOSS_MAX_ENTRIES = 1000;

/**
 * What deleting `path` would remove, for the approver: a file's size, or a directory's files, bytes
 * and directories, walked breadth first and never past LOSS_MAX_ENTRIES entries. Undefined when the
 * path is not what the delete expects (or cannot be read): the delete then fails with its own error.
 */
export async function deletionLoss(
  provider: FileSystemProviderV1,
  path: WorkspacePath,
  target: 'file' | 'directory',
  signal: AbortSignal | undefined,
): Promise<DeletionLoss | undefined> {
  const options = signal === undefined ? {} : { signal };
  try {
    const status = await provider.stat(path, options);
    if (target === 'file') return status.kind === 'file' ? { files: 1, bytes: status.sizeBytes ?? 0, directories: 0, complete: true } : undefined;
    if (status.kind !== 'directory') return undefined;
    let files = 0;
    let bytes = 0;
    let directories = 1;
    const pending: WorkspacePath[] = [path];
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      const left = LOSS_MAX_ENTRIES - files - directories;
      if (left <= 0) return { files, bytes, directories, complete: false };
      const listing = await provider.listDirectory(next, { ...options, limit: left });
      for (const entry of listing.entries) {
        if (entry.kind === 'directory') {
          directories += 1;
          pending.push(entry.path);
        } else {
          files += 1;
          bytes += entry.sizeBytes ?? 0;
        }
      }
      if (listing.truncated) return { files, bytes, directories, complete: false };
    }
    return { files, bytes, directories, complete: true };
  } catch {
    return undefined;
  }
}
