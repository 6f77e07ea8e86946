import { LibosError, childPath, isGitAlias, parseCanonicalPath, type WorkspacePath } from '@libos/core';

/**
 * A path read back from the state file as a WorkspacePath, or the refusal a path no libOS call
 * could have stored earns (a crafted or damaged state): core's canonical form, no `..`, no `.git`
 * alias, no empty or oversized component. Every path the overlay reads from SQLite passes here once.
 */
export function readStatePath(value: string): WorkspacePath | LibosError {
  const path = parseCanonicalPath(value);
  if (path !== null) return path;
  const shown = value.slice(0, 200);
  return new LibosError(
    value.split('/').some(isGitAlias) ? 'protected_path' : 'invalid_path',
    `The overlay state names '${shown}', which is not a path the workspace may change.`,
    { details: { path: shown, reason: 'state_path_refused' } },
  );
}

/** `readStatePath` for reads with no way to set a refused path aside: the refusal is thrown. */
export function decodeStatePath(value: string): WorkspacePath {
  const path = readStatePath(value);
  if (path instanceof LibosError) throw path;
  return path;
}

/** A row read from SQLite with its `path` decoded (throws the refusal of a crafted one). */
export function decodeRow<Row extends { readonly path: string }>(row: Row): Omit<Row, 'path'> & { readonly path: WorkspacePath } {
  return { ...row, path: decodeStatePath(row.path) };
}

/**
 * The entry at `relative` (a manifest's path, `a/b`) below `directory`, each name checked as a
 * listing's would be, so a crafted manifest row cannot climb out (`provider_failure`).
 */
export function pathBelow(directory: WorkspacePath, relative: string): WorkspacePath {
  return relative.split('/').reduce(childPath, directory);
}
