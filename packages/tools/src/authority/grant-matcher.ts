import { ROOT_PATH, pathKey, type Grant, type Right, type TargetKind, type WorkspacePath } from '@libos/core';

/** A validated grant with its position in the config, which keys its uses in the ledger. */
export interface IndexedGrant {
  readonly id: number;
  readonly grant: Grant;
}

/** Finds the grants that carry a right over a path, without scanning the whole policy. */
export interface GrantMatcher {
  matching(right: Right, path: WorkspacePath, target: TargetKind): IndexedGrant[];
  /** Whether some grant names a path directly inside `directory` (its entries may then be decided apart). */
  namesEntriesOf(directory: WorkspacePath): boolean;
}

/**
 * Indexes grants by path so a lookup costs one map probe per ancestor of the path, however long
 * the policy is. Paths are compared by `pathKey`: a grant written `café` (NFC) governs a file
 * named `café` in NFD too, so no spelling of a name escapes the grants of another.
 */
export function createGrantMatcher(grants: readonly Grant[]): GrantMatcher {
  const byPath = new Map<string, IndexedGrant[]>();
  // A recursive delete of D removes what lies below D, so deny and ask grants for delete below D
  // must still be heard; they are few, so a scan of them is cheap.
  const guardedDeletes: { readonly key: string; readonly entry: IndexedGrant }[] = [];
  // The keys of the directories holding a grant's path: only there can two entries be decided apart.
  const parents = new Set<string>();
  grants.forEach((grant, id) => {
    const entry = { id, grant };
    const key = pathKey(grant.path);
    const list = byPath.get(key);
    if (key !== ROOT_PATH) parents.add(key.includes('/') ? key.slice(0, key.lastIndexOf('/')) : ROOT_PATH);
    if (list === undefined) byPath.set(key, [entry]);
    else list.push(entry);
    if (grant.mode !== 'allow' && grant.rights.includes('delete')) guardedDeletes.push({ key, entry });
  });

  return {
    matching(right, asked, target) {
      const path = pathKey(asked);
      const found: IndexedGrant[] = [];
      const collect = (at: string, exactTarget: boolean) => {
        const list = byPath.get(at);
        if (list === undefined) return;
        for (const entry of list) {
          const { grant } = entry;
          if ((grant.tree || exactTarget) && grant.rights.includes(right)) found.push(entry);
        }
      };
      // Only file operations honour a grant for exactly their path; directories need a tree grant.
      collect(path, target === 'file');
      if (path !== ROOT_PATH) {
        for (let slash = path.lastIndexOf('/'); slash !== -1; slash = path.lastIndexOf('/', slash - 1)) {
          collect(path.slice(0, slash), false);
        }
        collect(ROOT_PATH, false);
      }
      if (target === 'directory' && right === 'delete') {
        const prefix = path === ROOT_PATH ? '' : `${path}/`;
        for (const { key, entry } of guardedDeletes) {
          if (key !== path && key !== ROOT_PATH && key.startsWith(prefix)) {
            found.push(entry);
          }
        }
      }
      return found;
    },
    namesEntriesOf(directory) {
      return parents.has(pathKey(directory));
    },
  };
}
