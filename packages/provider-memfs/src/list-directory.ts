import {
  FILE_MODE_BITS,
  childPath,
  compareCodePoints,
  providerErrors,
  type DirectoryEntry,
  type DirectoryListing,
  type ListDirectoryOptions,
  type PathStatus,
  type WorkspacePath,
} from '@libos/core';
import { SmallestItems } from '@libos/provider-kit';
import { mapMemfsError } from './map-memfs-error.js';
import { kindOf, resolvePath, type MemfsStats, type Workspace } from './resolve-path.js';

/** Observes the kind at a path; a link as the last component is reported, not followed. */
export function statPath(workspace: Workspace, path: WorkspacePath): PathStatus {
  const { leaf } = resolvePath(workspace, path);
  if (leaf === undefined) return { kind: 'missing', sizeBytes: null, modifiedAt: null };
  const status = describe(leaf);
  return status.kind === 'file' ? { ...status, mode: Number(leaf.mode) & FILE_MODE_BITS } : status;
}

/** Lists one level: names are read once through `opendir`, and only the kept ones are stat'ed. */
export function listDirectory(workspace: Workspace, path: WorkspacePath, options: ListDirectoryOptions): DirectoryListing {
  const { leaf, volumePath } = resolvePath(workspace, path);
  if (leaf === undefined) throw providerErrors.notFound(path);
  if (leaf.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
  if (!leaf.isDirectory()) throw providerErrors.notADirectory(path);
  const kept = new SmallestItems<string>(options.limit, compareCodePoints);
  try {
    // readdirSync would build the whole (UTF-16 sorted) array; opendir streams names in insertion order.
    const directory = workspace.fs.opendirSync(volumePath);
    try {
      for (let entry = directory.readSync(); entry !== null; entry = directory.readSync()) kept.offer(String(entry.name));
    } finally {
      directory.closeSync();
    }
    const prefix = volumePath === '/' ? '' : volumePath;
    const entries = kept.sorted().map((name): DirectoryEntry => {
      const stats = workspace.fs.lstatSync(`${prefix}/${name}`);
      return { name, path: childPath(path, name), ...describe(stats) } as DirectoryEntry;
    });
    return { entries, truncated: kept.overflowed };
  } catch (error) {
    throw mapMemfsError(error, path, 'list');
  }
}

function describe(stats: MemfsStats): PathStatus & { kind: DirectoryEntry['kind']; modifiedAt: string } {
  const kind = kindOf(stats);
  return {
    kind,
    sizeBytes: kind === 'file' ? Number(stats.size) : null,
    modifiedAt: stats.mtime.toISOString(),
  };
}
