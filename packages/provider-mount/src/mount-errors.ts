import { LibosError, type WorkspacePath } from '@libos/core';

const quote = (path: string): string => `'${path}'`;

/** The errors only a mount provider raises (docs/mounts.md); every other one is a mounted provider's, its paths mapped. */
export const mountErrors = {
  /**
   * `protected_path`: the call would create `name` at the workspace root, which holds the mounts
   * and nothing else. Decided from the path alone, before anything is probed.
   */
  rootHoldsOnlyMounts(path: WorkspacePath, name: WorkspacePath, mountNames: readonly string[]): LibosError {
    const where = path === name ? quote(path) : `${quote(name)} (for ${quote(path)})`;
    return new LibosError(
      'protected_path',
      `The workspace root holds only its mounts (${mountNames.join(', ')}); nothing can be created there, so ${where} is refused.`,
      { details: { path, protected: name } },
    );
  },
  /** `root_refused`: a mount point is the root of its mount, so it is never deleted, renamed or replaced. */
  mountPoint(path: WorkspacePath): LibosError {
    return new LibosError('root_refused', `${quote(path)} is a mount point; it cannot be deleted.`, { details: { path } });
  },
  /**
   * `invalid_arguments`: a move between two mounts. No provider can move a file between two trees in
   * one atomic step, and a copy then a delete could stop halfway; decided from the paths alone, so
   * the call changes nothing and must be made differently (copy_file, then delete_file).
   */
  crossMount(from: WorkspacePath, to: WorkspacePath, fromMount: string, toMount: string): LibosError {
    return new LibosError(
      'invalid_arguments',
      `${quote(from)} is on the mount ${quote(fromMount)} and ${quote(to)} on the mount ${quote(toMount)}; a file cannot be moved between mounts (copy it, then delete the original). Nothing was changed.`,
      { details: { path: from, to, reason: 'cross_mount_move', from_mount: fromMount, to_mount: toMount } },
    );
  },
  /** `provider_failure` with effect `none`: the mount's provider lacks the optional method the call needs. */
  unsupported(path: WorkspacePath, mountName: string, providerName: string, what: string): LibosError {
    return new LibosError('provider_failure', `The mount ${quote(mountName)} (provider "${providerName}") cannot ${what}.`, {
      effect: 'none',
      details: { path, reason: 'unsupported' },
    });
  },
  /** `too_large`: a copy between mounts holds the whole file in memory, so it is bounded. */
  copyTooLarge(from: WorkspacePath, maxBytes: number): LibosError {
    return new LibosError(
      'too_large',
      `${quote(from)} is larger than ${maxBytes} bytes, the most a copy between two mounts carries; nothing was written.`,
      { details: { path: from, max_bytes: maxBytes } },
    );
  },
};
