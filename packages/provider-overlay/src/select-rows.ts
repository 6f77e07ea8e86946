import { LibosError, compareCodePoints, parseCanonicalPath } from '@libos/core';
import type { RowHead } from './entry-rows.js';
import type { OverlayContext } from './overlay-context.js';

const HEAD = 'path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, base_sha256, base_size, base_files, manifest_id, change';

/** Checks person-given paths: canonical root-relative identities only. */
export function checkPaths(paths: readonly string[] | undefined): string[] | undefined {
  if (paths === undefined) return undefined;
  return paths.map((path) => {
    const canonical = parseCanonicalPath(path);
    if (canonical === null)
      throw new LibosError('invalid_path', `'${path}' is not a canonical workspace path (like src/a.txt).`, { details: { path } });
    return canonical;
  });
}

/**
 * The changed rows a person selected, in path order: every change at or below one of `paths`
 * (all changes when none are given). Each given path costs one indexed range scan.
 */
export function selectedRows(context: OverlayContext, paths: readonly string[] | undefined): RowHead[] {
  const checked = checkPaths(paths);
  const { db } = context.state;
  if (checked === undefined || checked.includes('.')) {
    return db.prepare<[], RowHead>(`SELECT ${HEAD} FROM entries WHERE change IS NOT NULL ORDER BY path`).all();
  }
  const at = db.prepare<[string, string, string], RowHead>(
    `SELECT ${HEAD} FROM entries WHERE change IS NOT NULL AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path`,
  );
  const found = new Map<string, RowHead>();
  for (const path of checked) for (const row of at.all(path, `${path}/`, `${path}0`)) found.set(row.path, row);
  return [...found.values()].sort((left, right) => compareCodePoints(left.path, right.path));
}
