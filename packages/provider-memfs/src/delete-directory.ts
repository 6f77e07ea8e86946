import { isGitAlias, providerErrors, type DeleteDirectoryOptions, type WorkspacePath } from '@libos/core';
import type { IFs } from 'memfs';

/** The part of a memfs directory entry the scan reads. */
interface Dirent {
  readonly name: string | Buffer;
  isDirectory(): boolean;
}
import { mapMemfsError } from './map-memfs-error.js';
import { resolvePath, type Workspace } from './resolve-path.js';

/** One entry that is not a directory in a tree about to be removed. */
interface DoomedEntry {
  readonly volumePath: string;
}

/**
 * Deletes a directory. The recursive form scans the whole tree first (refusing a `.git` alias at any
 * depth before anything changes), then unlinks every file and link one by one (so a hard link's
 * other names keep a right nlink) and removes the emptied directories together; `rmSync` is never
 * used because it follows a final link and miscounts nlink.
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
      fs.unlinkSync(entry.volumePath);
      removed++;
    }
    // Only empty directories are left: one call removes them all, where one rmdir each would walk
    // from the root each time (a 2,000-level tree cost seconds).
    removeEmptyDirectory(fs, volumePath);
  } catch (error) {
    throw mapMemfsError(error, path, 'delete', removed > 0 ? 'unknown' : 'none');
  }
  return { deleted: true };
}

/**
 * Lists what is not a directory in the tree under `top`, by the entries' own types (links are
 * entries, never followed), and refuses the tree when any name at any depth is a `.git` alias.
 */
function scanTree(fs: IFs, top: string, path: WorkspacePath): DoomedEntry[] {
  const doomed: DoomedEntry[] = [];
  // An explicit stack: a 4096-byte path can nest about 2,000 directories.
  const stack: Array<{ volumePath: string; relative: string }> = [{ volumePath: top, relative: path }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    for (const entry of fs.readdirSync(frame.volumePath, { withFileTypes: true }) as Dirent[]) {
      const name = String(entry.name);
      const relative = `${frame.relative}/${name}`;
      if (isGitAlias(name)) {
        throw providerErrors.protectedPath(path, relative as WorkspacePath);
      }
      const volumePath = `${frame.volumePath}/${name}`;
      if (entry.isDirectory()) stack.push({ volumePath, relative });
      else doomed.push({ volumePath });
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
