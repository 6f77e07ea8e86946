import { LibosError, compareCodePoints, isRootPath, parseCanonicalPath, type WorkspacePath } from '@libos/core';
import type { StoredHead } from '../state/entry-rows.js';
import { readStatePath } from '../state/state-path.js';
import { prefixesOf } from '../agent/locate-path.js';
import type { OverlayContext } from '../overlay-context.js';
import { renamePartners } from './rename-pairs.js';

const HEAD =
  'path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, base_sha256, base_size, base_files, manifest_id, change, mode_of, moved_from';

/** Checks person-given paths: canonical root-relative identities only. */
export function checkPaths(paths: readonly string[] | undefined): WorkspacePath[] | undefined {
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
 * (all changes when none are given). Each given path costs one indexed range scan. Rows come as
 * stored: a person sees, discards and is refused (`refused_path`) even a row of a crafted state,
 * so each action decodes the path it acts on (`readStatePath`). A rename is one change in two rows
 * (docs/overlay.md, "Renames"): naming either half selects both, so no action takes half of one.
 */
export function selectedRows(context: OverlayContext, paths: readonly string[] | undefined): StoredHead[] {
  const checked = checkPaths(paths);
  const { db } = context.state;
  if (checked === undefined || checked.some(isRootPath)) {
    return db.prepare<[], StoredHead>(`SELECT ${HEAD} FROM entries WHERE change IS NOT NULL ORDER BY path`).all();
  }
  const at = db.prepare<[string, string, string], StoredHead>(
    `SELECT ${HEAD} FROM entries WHERE change IS NOT NULL AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path`,
  );
  const found = new Map<string, StoredHead>();
  for (const path of checked) for (const row of at.all(path, `${path}/`, `${path}0`)) found.set(row.path, row);
  const one = db.prepare<[string], StoredHead>(`SELECT ${HEAD} FROM entries WHERE path = ?`);
  for (const partner of renamePartners(db, [...found.values()]).keys()) {
    const row = found.has(partner) ? undefined : one.get(partner);
    if (row !== undefined) found.set(row.path, row);
  }
  return [...found.values()].sort((left, right) => compareCodePoints(left.path, right.path));
}

/**
 * What an apply of `paths` would land: the selected rows plus the changed directories above them
 * that they stand in, in path order, read in one transaction (one moment of the state).
 */
export function landingRows(context: OverlayContext, paths: readonly string[] | undefined): StoredHead[] {
  return context.state.db.transaction(() => {
    const rows = selectedRows(context, paths);
    const all = new Map(rows.map((row) => [row.path, row]));
    for (const row of rows) {
      // A refused row stands in no directory: its own refusal keeps it from landing.
      const path = readStatePath(row.path);
      if (path instanceof LibosError) continue;
      for (const prefix of prefixesOf(path)) {
        if (prefix === row.path || all.has(prefix)) continue;
        const parent = context.rows.head(prefix);
        if (parent !== undefined && parent.kind === 'directory' && parent.change !== null) all.set(prefix, parent);
      }
    }
    return [...all.values()].sort((left, right) => compareCodePoints(left.path, right.path));
  })();
}
