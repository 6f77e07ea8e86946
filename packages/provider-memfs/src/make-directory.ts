import { providerErrors, type MakeDirectoryOptions, type WorkspacePath } from '@libos/core';
import { mapMemfsError } from './map-memfs-error.js';
import { resolvePath, volumePathOf, type Workspace } from './resolve-path.js';

// What a 022 umask gives on disk; memfs has no umask and would make 0o777.
export const NEW_DIRECTORY_MODE = 0o755;

/**
 * Our own `mkdir -p`: memfs's recursive mkdir follows links and succeeds on an existing file
 * (packages/provider-memfs/README.md, Why memfs), so each missing component is made with a plain mkdir after an lstat walk.
 */
export function makeDirectory(workspace: Workspace, path: WorkspacePath, options: MakeDirectoryOptions): { created: boolean } {
  const resolved = resolvePath(workspace, path, { missingParents: options.parents });
  const { leaf, segments } = resolved;
  if (leaf !== undefined) {
    if (leaf.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
    if (!leaf.isDirectory()) throw providerErrors.notADirectory(path);
    if (options.existOk) return { created: false };
    throw providerErrors.alreadyExists(path);
  }
  const from = resolved.firstMissing === -1 ? segments.length - 1 : resolved.firstMissing;
  try {
    createMissingDirectories(workspace, segments, from, segments.length);
  } catch (error) {
    throw mapMemfsError(error, path, 'create', from < segments.length - 1 ? 'unknown' : 'none');
  }
  return { created: true };
}

/** Makes the directories `segments[from..to)`, which the caller's walk found missing. */
export function createMissingDirectories(workspace: Workspace, segments: readonly string[], from: number, to: number): void {
  for (let index = from; index < to; index++) {
    workspace.fs.mkdirSync(volumePathOf(workspace, segments.slice(0, index + 1)), { mode: NEW_DIRECTORY_MODE });
  }
}
