import { LibosError, ROOT_PATH, compareCodePoints, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { checkMountNames } from './mount-name.js';
import type { PathMapping } from './rebase-paths.js';

/** One mounted provider and the name it is served at. */
export interface Mount {
  readonly name: string;
  readonly provider: FileSystemProviderV1;
  /** A path of the mount's own tree as the workspace names it (`.` is the mount point `web`). */
  readonly outer: PathMapping;
}

/** Where a workspace path lies: the root, below a top-level name no mount holds, or in a mount. */
export type Location =
  | { readonly at: 'root' }
  | { readonly at: 'unmounted'; readonly name: WorkspacePath }
  | { readonly at: 'mount'; readonly mount: Mount; readonly inner: WorkspacePath };

/** The mounts by name, and where each workspace path lies among them. */
export interface MountTable {
  /** The mounts in code-point order of their names. */
  readonly mounts: readonly Mount[];
  locate(path: WorkspacePath): Location;
}

/**
 * Builds the table of `mounts` (a plain record, read with `Object.entries`, so `__proto__` is a name
 * like any other). Throws `invalid_arguments` for a bad or repeated name (`checkMountNames`), or one
 * provider mounted twice: two names for one tree would let a rule or a read-only flag written for
 * one name be passed by the other, and a delete in one reach into the other.
 */
export function createMountTable(mounts: Readonly<Record<string, FileSystemProviderV1>>): MountTable {
  const entries = Object.entries(mounts);
  checkMountNames(entries.map(([name]) => name));
  const providers = new Map<FileSystemProviderV1, string>();
  for (const [name, provider] of entries) {
    const twin = providers.get(provider);
    if (twin !== undefined) {
      throw new LibosError(
        'invalid_arguments',
        `The mounts ${JSON.stringify(twin)} and ${JSON.stringify(name)} are one provider; mount each tree once.`,
        {
          details: { reason: 'duplicate_mount_provider' },
        },
      );
    }
    providers.set(provider, name);
  }
  const byName = new Map<string, Mount>();
  for (const [name, provider] of entries) {
    byName.set(name, { name, provider, outer: (path) => (path === ROOT_PATH ? name : `${name}/${path}`) as WorkspacePath });
  }
  return {
    mounts: [...byName.values()].sort((left, right) => compareCodePoints(left.name, right.name)),
    locate(path) {
      if (path === ROOT_PATH) return { at: 'root' };
      const slash = path.indexOf('/');
      const name = slash === -1 ? path : path.slice(0, slash);
      const mount = byName.get(name);
      if (mount === undefined) return { at: 'unmounted', name: name as WorkspacePath };
      return { at: 'mount', mount, inner: (slash === -1 ? ROOT_PATH : path.slice(slash + 1)) as WorkspacePath };
    },
  };
}
