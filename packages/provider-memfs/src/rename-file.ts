import { providerErrors, type RenameOptions, type WorkspacePath } from '@libos/core';
import { checkTransferTarget } from '@libos/provider-kit';
import { createMissingDirectories } from './make-directory.js';
import { mapMemfsError } from './map-memfs-error.js';
import { checkRegularFile, kindOf, resolvePath, type Workspace } from './resolve-path.js';

/**
 * Moves one regular single-link file. Every check and the move run in one synchronous block, so the
 * file checked is the file moved and `overwrite: false` is decided atomically. memfs's rename onto
 * an existing name corrupts link counts (packages/provider-memfs/README.md, Why memfs), so a replaced file is unlinked first.
 */
export function renameFile(workspace: Workspace, from: WorkspacePath, to: WorkspacePath, options: RenameOptions): { replaced: boolean } {
  const source = resolvePath(workspace, from);
  if (source.segments.length === 0) throw providerErrors.notAFile(from, 'directory');
  checkRegularFile(from, source.leaf);
  const target = resolvePath(workspace, to, { missingParents: true });
  if (target.segments.length === 0) throw providerErrors.notAFile(to, 'directory');
  const existing = target.leaf;
  if (existing !== undefined) {
    checkTransferTarget(to, kindOf(existing), options.overwrite);
    checkRegularFile(to, existing);
  }
  if (from === to) return { replaced: false };
  let changed = false;
  try {
    if (target.firstMissing !== -1) {
      createMissingDirectories(workspace, target.segments, target.firstMissing, target.segments.length - 1);
      changed = true;
    }
    if (existing !== undefined) {
      workspace.fs.unlinkSync(target.volumePath);
      changed = true;
    }
    workspace.fs.renameSync(source.volumePath, target.volumePath);
    return { replaced: existing !== undefined };
  } catch (error) {
    throw mapMemfsError(error, to, 'write', changed ? 'unknown' : 'none');
  }
}
