import { ROOT_PATH, type Grant, type Right, type TargetKind, type WorkspacePath } from '@libos/core';

/** A validated grant with its position in the config, which keys its uses in the ledger. */
export interface IndexedGrant {
  readonly id: number;
  readonly grant: Grant;
}

/** Finds the grants that carry a right over a path, without scanning the whole policy. */
export interface GrantMatcher {
  matching(right: Right, path: WorkspacePath, target: TargetKind): IndexedGrant[];
}

/**
 * Indexes grants by path so a lookup costs one map probe per ancestor of the path, however long
 * the policy is.
 */
export function createGrantMatcher(grants: readonly Grant[]): GrantMatcher {
  const byPath = new Map<string, IndexedGrant[]>();
  // A recursive delete of D removes what lies below D, so deny and ask grants for delete below D
  // must still be heard; they are few, so a scan of them is cheap.
  const guardedDeletes: IndexedGrant[] = [];
  grants.forEach((grant, id) => {
    const entry = { id, grant };
    const list = byPath.get(grant.path);
    if (list === undefined) byPath.set(grant.path, [entry]);
    else list.push(entry);
    if (grant.mode !== 'allow' && grant.rights.includes('delete')) guardedDeletes.push(entry);
  });

  return {
    matching(right, path, target) {
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
        for (const entry of guardedDeletes) {
          if (entry.grant.path !== path && entry.grant.path !== ROOT_PATH && entry.grant.path.startsWith(prefix)) {
            found.push(entry);
          }
        }
      }
      return found;
    },
  };
}
