import { isGitAlias, providerErrors, type DeleteDirectoryOptions, type WorkspacePath } from '@libos/core';
import type { IFs } from 'memfs';
import { mapMemfsError } from './map-memfs-error.js';
import { resolvePath, type Workspace } from './resolve-path.js';

/** One entry of a tree about to be removed, children listed before their directory. */
interface DoomedEntry {
  readonly volumePath: string;
  readonly directory: boolean;
}

/**
 * Deletes a directory. The recursive form scans the whole tree first (refusing a `.git` alias at any
 * depth before anything changes), then unlinks files and links bottom-up and removes each emptied
 * directory; `rmSync` is never used because it follows a final link and miscounts nlink.
 */
export function deleteDirectory(workspace: Workspace, path: WorkspacePath, options: DeleteDirectoryOptions): { deleted: boolean } {
  const resolved = resolvePath(workspace, path, { missingParents: options.missingOk });
  if (resolved.segments.length === 0) throw providerErrors.rootRefused(path);
  const { leaf, volumePath } = resolved;
  if (leaf === undefined) {
    if (options.missingOk) return { deleted: false };
    throw providerErrors.notFound(path);
  }
  if (leaf.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
  if (!leaf.isDirectory()) throw providerErrors.notADirectory(path);
  const fs = workspace.fs;
  if (!options.recursive) {
    let empty: boolean;
    try {
      empty = isEmptyDirectory(fs, volumePath);
    } catch (error) {
      throw mapMemfsError(error, path, 'list');
    }
    if (!empty) throw providerErrors.directoryNotEmpty(path);
    try {
      removeEmptyDirectory(fs, volumePath);
    } catch (error) {
      throw mapMemfsError(error, path, 'delete');
    }
    return { deleted: true };
  }
  let doomed: DoomedEntry[];
  try {
    doomed = scanTree(fs, volumePath, path);
  } catch (error) {
    throw mapMemfsError(error, path, 'list');
  }
  let removed = 0;
  try {
    for (const entry of doomed) {
      if (entry.directory) removeEmptyDirectory(fs, entry.volumePath);
      else fs.unlinkSync(entry.volumePath);
      removed++;
    }
  } catch (error) {
    throw mapMemfsError(error, path, 'delete', removed > 0 ? 'unknown' : 'none');
  }
  return { deleted: true };
}

/**
 * Lists the tree under `top` in post-order with lstat only (links are entries, never followed) and
 * refuses it when any name at any depth is a `.git` alias.
 */
function scanTree(fs: IFs, top: string, path: WorkspacePath): DoomedEntry[] {
  const doomed: DoomedEntry[] = [];
  // An explicit stack: a 4096-byte path can nest about 2,000 directories.
  const stack: Array<{ volumePath: string; relative: string; expanded: boolean }> = [{ volumePath: top, relative: path, expanded: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.expanded) {
      stack.pop();
      doomed.push({ volumePath: frame.volumePath, directory: true });
      continue;
    }
    frame.expanded = true;
    for (const name of fs.readdirSync(frame.volumePath) as string[]) {
      const relative = `${frame.relative}/${name}`;
      if (isGitAlias(name)) {
        throw providerErrors.protectedPath(path, relative as WorkspacePath);
      }
      const volumePath = `${frame.volumePath}/${name}`;
      if (fs.lstatSync(volumePath).isDirectory()) stack.push({ volumePath, relative, expanded: false });
      else doomed.push({ volumePath, directory: false });
    }
  }
  return doomed;
}

function isEmptyDirectory(fs: IFs, volumePath: string): boolean {
  const directory = fs.opendirSync(volumePath);
  try {
    return directory.readSync() === null;
  } finally {
    directory.closeSync();
  }
}

// `recursive: true` makes memfs skip its child counter, which a rename-over leaves too high; the
// directory was just seen empty in this same synchronous block.
function removeEmptyDirectory(fs: IFs, volumePath: string): void {
  fs.rmdirSync(volumePath, { recursive: true });
}
