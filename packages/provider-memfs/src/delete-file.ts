import { providerErrors, type DeleteFileOptions, type WorkspacePath } from '@libos/core';
import { mapMemfsError } from './map-memfs-error.js';
import { checkRegularFile, resolvePath, type Workspace } from './resolve-path.js';

/** Unlinks one regular file with a single name; `unlinkSync` never follows a link. */
export function deleteFile(workspace: Workspace, path: WorkspacePath, options: DeleteFileOptions): { deleted: boolean } {
  // A missing ancestor means the file is missing too, which `missingOk` accepts.
  const resolved = resolvePath(workspace, path, { missingParents: options.missingOk });
  if (resolved.segments.length === 0) throw providerErrors.notAFile(path, 'directory');
  if (resolved.leaf === undefined && options.missingOk) return { deleted: false };
  checkRegularFile(path, resolved.leaf);
  try {
    workspace.fs.unlinkSync(resolved.volumePath);
  } catch (error) {
    throw mapMemfsError(error, path, 'delete');
  }
  return { deleted: true };
}
