import { ROOT_PATH, pathSegments, providerErrors, type WorkspacePath } from '@libos/core';
import type { IFs } from 'memfs';
import { mapMemfsError } from './map-memfs-error.js';

/** The part of a memfs `Stats` the provider reads (memfs's own type lives in an internal package). */
export interface MemfsStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly mode: number;
  readonly nlink: number;
  readonly size: number;
  readonly mtime: Date;
}

/** A volume and the absolute volume directory that is the workspace root. */
export interface Workspace {
  readonly fs: IFs;
  readonly root: string;
}

/** What a walk found: the volume paths of the target and its parent, and the target's lstat. */
export interface Resolved {
  readonly path: WorkspacePath;
  readonly volumePath: string;
  readonly parentVolumePath: string;
  /** The leaf's lstat, or undefined when the leaf is missing. */
  readonly leaf: MemfsStats | undefined;
  /** Index of the first missing component before the leaf, or -1; only set when `missingParents` allows it. */
  readonly firstMissing: number;
  readonly segments: readonly string[];
}

/** How a walk treats a missing component before the leaf. */
export interface WalkOptions {
  /** Stop and report the first missing ancestor instead of throwing `not_found`. */
  readonly missingParents?: boolean;
}

/** Joins root-relative segments onto the workspace root's volume path. */
export function volumePathOf(workspace: Workspace, segments: readonly string[]): string {
  if (segments.length === 0) return workspace.root;
  return `${workspace.root === '/' ? '' : workspace.root}/${segments.join('/')}`;
}

/**
 * Walks from the workspace root to `path` with one lstat per component, because memfs follows links
 * in intermediate components even under O_NOFOLLOW (packages/provider-memfs/README.md, Why memfs). Callers run the walk and
 * their effect in one synchronous block, so nothing can change the tree between them.
 */
export function resolvePath(workspace: Workspace, path: WorkspacePath, options: WalkOptions = {}): Resolved {
  const { fs } = workspace;
  const segments = pathSegments(path);
  const root = lstatOrUndefined(fs, workspace.root, ROOT_PATH);
  if (root === undefined) throw providerErrors.rootGone(path);
  if (!root.isDirectory()) throw providerErrors.rootReplaced(path);
  if (segments.length >= 2) {
    const fast = resolveUnderRealParent(workspace, path, segments);
    if (fast !== undefined) return fast;
  }
  let parentVolumePath = workspace.root;
  let current = workspace.root;
  let leaf: MemfsStats | undefined = root;
  let prefix = '';
  for (let index = 0; index < segments.length; index++) {
    parentVolumePath = current;
    current = `${current === '/' ? '' : current}/${segments[index]}`;
    prefix = index === 0 ? segments[0]! : `${prefix}/${segments[index]}`;
    leaf = lstatOrUndefined(fs, current, prefix as WorkspacePath);
    const last = index === segments.length - 1;
    if (leaf === undefined) {
      if (last) break;
      if (options.missingParents === true) {
        return { path, volumePath: volumePathOf(workspace, segments), parentVolumePath: '', leaf: undefined, firstMissing: index, segments };
      }
      throw providerErrors.notFound(path, prefix as WorkspacePath);
    }
    if (leaf.isSymbolicLink() && !last) throw providerErrors.symlinkRefused(path, prefix as WorkspacePath);
    if (!last && !leaf.isDirectory()) throw providerErrors.notADirectory(path, prefix as WorkspacePath);
  }
  return { path, volumePath: current, parentVolumePath, leaf, firstMissing: -1, segments };
}

/**
 * The common case in a number of memfs calls that does not grow with the depth: each memfs call walks
 * from the volume root, so a walk with one lstat per component costs the square of the depth (a
 * 2,000-level path took seconds). When the parent's real path is the parent's own path, every
 * component before the leaf exists and is a directory, not a link (a link in it would have been
 * replaced by its target) and, when the parent is a directory, the full walk would pass them all; only
 * the leaf needs its lstat.
 * Anything else (a missing parent, a link, a file on the way, a denied search) returns undefined and
 * the caller's full walk finds and reports it exactly as before.
 */
function resolveUnderRealParent(workspace: Workspace, path: WorkspacePath, segments: readonly string[]): Resolved | undefined {
  const parentVolumePath = volumePathOf(workspace, segments.slice(0, -1));
  try {
    if (String(workspace.fs.realpathSync(parentVolumePath)) !== parentVolumePath) return undefined;
    // The parent itself may be a file: its real path is its own, and the walk reports it by name.
    if (workspace.fs.lstatSync(parentVolumePath, { throwIfNoEntry: false })?.isDirectory() !== true) return undefined;
  } catch {
    return undefined;
  }
  const volumePath = `${parentVolumePath}/${segments[segments.length - 1]}`;
  const leaf = lstatOrUndefined(workspace.fs, volumePath, path);
  return { path, volumePath, parentVolumePath, leaf, firstMissing: -1, segments };
}

/** The kind of an lstat result, in the contract's words. */
export function kindOf(stats: MemfsStats): 'file' | 'directory' | 'symlink' | 'other' {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  return 'other';
}

function lstatOrUndefined(fs: IFs, volumePath: string, path: WorkspacePath): MemfsStats | undefined {
  try {
    return fs.lstatSync(volumePath, { throwIfNoEntry: false });
  } catch (error) {
    throw mapMemfsError(error, path, 'observe');
  }
}

/**
 * Refuses anything but a regular file with one name at a resolved leaf: missing is `not_found`, a
 * link `symlink_refused`, a directory or kind `other` `not_a_file`, a second hard link `hard_link_refused`.
 */
export function checkRegularFile(path: WorkspacePath, leaf: MemfsStats | undefined): MemfsStats {
  if (leaf === undefined) throw providerErrors.notFound(path);
  if (leaf.isSymbolicLink()) throw providerErrors.symlinkRefused(path);
  if (!leaf.isFile()) throw providerErrors.notAFile(path, leaf.isDirectory() ? 'directory' : 'other');
  if (Number(leaf.nlink) > 1) throw providerErrors.hardLinkRefused(path, Number(leaf.nlink));
  return leaf;
}
