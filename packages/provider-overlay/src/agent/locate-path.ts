import { isRootPath, parentPath, providerErrors, type WorkspacePath } from '@libos/core';
import type { RowHead, RowStatements } from '../state/entry-rows.js';

/**
 * Where the agent's view of a path comes from:
 * - `upper`: the overlay holds a file, a directory or a whiteout (deleted) at the path;
 * - `covered`: an overlay directory above hides the lower and holds nothing here: missing;
 * - `lower`: the lower decides (no overlay row above cuts it off).
 */
export type Location = { readonly at: 'upper'; readonly row: RowHead } | { readonly at: 'covered' } | { readonly at: 'lower' };

/** The root, then every ancestor of `path`, then `path` itself. */
export function prefixesOf(path: WorkspacePath): WorkspacePath[] {
  if (isRootPath(path)) return [];
  const prefixes: WorkspacePath[] = [];
  for (let above: WorkspacePath | null = path; above !== null && !isRootPath(above); above = parentPath(above)) prefixes.push(above);
  return prefixes.reverse();
}

/**
 * Decides where `path` lives in one query over its prefixes. An overlay file above the path is
 * `not_a_directory`, a whiteout or a missing name under an overlay directory is `not_found`, as the
 * lower would say for the same tree. The lower is never asked about anything below an overlay cut.
 */
export function locatePath(rows: RowStatements, path: WorkspacePath): Location {
  const prefixes = prefixesOf(path);
  const found = rows.heads(prefixes);
  if (found.length === 0) return { at: 'lower' };
  const byPath = new Map(found.map((row) => [row.path, row]));
  let covered = false;
  for (const prefix of prefixes) {
    const row = byPath.get(prefix);
    const last = prefix === path;
    if (row === undefined) {
      if (!covered) continue;
      if (last) return { at: 'covered' };
      throw providerErrors.notFound(path, prefix);
    }
    if (last) return row.kind === 'directory' && row.opaque === 0 ? { at: 'lower' } : { at: 'upper', row };
    if (row.kind === 'whiteout') throw providerErrors.notFound(path, prefix);
    if (row.kind === 'file') throw providerErrors.notADirectory(path, prefix);
    if (row.opaque === 1) covered = true;
  }
  return { at: 'lower' };
}
