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

/**
 * Makes the directories `segments[from..to)`, which the caller's walk found missing. One recursive
 * mkdir instead of one mkdir each, since each memfs call walks from the root (a 2,000-level tree cost
 * seconds); its faults (following links, accepting a file) cannot arise here, because the caller's walk,
 * in this same synchronous block, saw every component before `from` as a directory and `from` missing.
 */
export function createMissingDirectories(workspace: Workspace, segments: readonly string[], from: number, to: number): void {
  if (from >= to) return;
  const target = volumePathOf(workspace, segments.slice(0, to));
  if (to - from === 1) workspace.fs.mkdirSync(target, { mode: NEW_DIRECTORY_MODE });
  else workspace.fs.mkdirSync(target, { mode: NEW_DIRECTORY_MODE, recursive: true });
}
