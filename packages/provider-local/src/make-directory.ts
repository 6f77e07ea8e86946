import { closeSync, lstatSync, mkdirSync } from 'node:fs';
import { baseName, pathSegments, providerErrors } from '@libos/core';
import type { MakeDirectoryOptions, WorkspacePath } from '@libos/core';
import { hostCode, mapNodeError } from './map-node-error.js';
import { stepped } from './operation-context.js';
import type { OperationContext } from './operation-context.js';
import { holdRoot, openChildDirectory, walk } from './walk.js';

/**
 * Creates a directory with mkdir relative to its pinned parent (mkdir never follows a link, and an
 * existing entry of any kind makes it fail), creating missing parents one pinned step at a time.
 */
export function makeDirectory(context: OperationContext, path: WorkspacePath, options: MakeDirectoryOptions): { readonly created: boolean } {
  const segments = pathSegments(path);
  if (segments.length === 0) {
    holdRoot(context);
    if (options.existOk) return { created: false };
    throw providerErrors.alreadyExists(path);
  }
  const { directory, created: parentsMade } = walk(context, segments.slice(0, -1), options.parents);
  try {
    const target = context.paths.named(directory.fd, baseName(path));
    stepped(context, directory.path, 'effect');
    try {
      mkdirSync(target, 0o777);
      return { created: true };
    } catch (error) {
      if (hostCode(error) !== 'EEXIST') throw mapNodeError(error, path);
    }
    let existing;
    try {
      existing = lstatSync(target);
    } catch (error) {
      throw mapNodeError(error, path);
    }
    if (existing.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
    if (!existing.isDirectory()) throw providerErrors.notADirectory(path);
    // An existing directory is held and checked like a walked one: a mount point is refused.
    closeSync(openChildDirectory(context, directory.fd, baseName(path), path));
    if (!options.existOk) throw providerErrors.alreadyExists(path);
    return { created: false };
  } catch (error) {
    throw mapNodeError(error, path, parentsMade > 0 ? 'unknown' : 'none');
  } finally {
    directory.release();
  }
}
