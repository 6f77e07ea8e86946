import { LibosError } from '@libos/core';
import type Database from 'better-sqlite3';
import type { StoredHead } from '../state/entry-rows.js';
import type { OverlayConflict } from '../overlay-types.js';

/** The fields of a row that decide whether it is one half of a rename. */
type PairedRow = Pick<StoredHead, 'path' | 'kind' | 'base_kind' | 'change'> & Pick<StoredHead, 'moved_from'>;

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(db: Database.Database) {
  return {
    source: db.prepare<[string], PairedRow>('SELECT path, kind, base_kind, change, moved_from FROM entries WHERE path = ?'),
    // Two are enough to know a lower file has more than one claimant.
    targets: db.prepare<[string], PairedRow>(
      "SELECT path, kind, base_kind, change, moved_from FROM entries WHERE moved_from = ? AND change IS NOT NULL AND kind = 'file' LIMIT 2",
    ),
  };
}

const isMovedAway = (row: PairedRow | undefined): boolean =>
  row !== undefined && row.kind === 'whiteout' && row.base_kind === 'file' && row.change === 'deleted';

/**
 * The other half of each row that is one half of a recorded rename (docs/overlay.md, "Renames"):
 * a changed file whose `moved_from` names a lower file the overlay shows deleted, and that deleted
 * file, when that file is the only one moved from there. Anything else (the source written again,
 * two files claiming one source) is no rename: those rows stand as the adds and deletes they are.
 */
export function renamePartners(db: Database.Database, rows: readonly PairedRow[]): Map<string, string> {
  let prepared = statements.get(db);
  if (prepared === undefined) {
    prepared = prepare(db);
    statements.set(db, prepared);
  }
  const { source, targets } = prepared;
  const partners = new Map<string, string>();
  const onlyTarget = (from: string): string | undefined => {
    const claimants = targets.all(from);
    return claimants.length === 1 ? claimants[0]?.path : undefined;
  };
  for (const row of rows) {
    if (partners.has(row.path)) continue;
    let pair: readonly [from: string, to: string] | undefined;
    if (typeof row.moved_from === 'string' && row.kind === 'file' && row.change !== null) {
      const from = row.moved_from;
      if (isMovedAway(source.get(from)) && onlyTarget(from) === row.path) pair = [from, row.path];
    } else if (isMovedAway(row)) {
      const to = onlyTarget(row.path);
      if (to !== undefined) pair = [row.path, to];
    }
    if (pair === undefined) continue;
    partners.set(pair[0], pair[1]);
    partners.set(pair[1], pair[0]);
  }
  return partners;
}

/**
 * The steps of an apply that may land: a half of a rename whose other half does not land (a
 * conflict, not the version shown, refused) stays in the overlay with a `rename_partner` conflict,
 * so an apply lands a rename whole or not at all, never a copy or a lone delete.
 */
export function holdRenames<Step extends { readonly row: { readonly path: string } }>(
  partners: ReadonlyMap<string, string>,
  steps: readonly Step[],
  landing: ReadonlySet<string>,
  conflicts: OverlayConflict[],
): Step[] {
  return steps.filter((step) => {
    const partner = partners.get(step.row.path);
    if (partner === undefined || landing.has(partner)) return true;
    conflicts.push({ path: step.row.path, reason: 'rename_partner', expected_sha256: null, actual_sha256: null });
    return false;
  });
}

/** Refuses hunks of a rename's half: a rename lands or is dropped whole (its hunks are not the added file's). */
export function refuseRenameHunks(partners: ReadonlyMap<string, string>, hunks: Readonly<Record<string, unknown>> | undefined): void {
  for (const path of Object.keys(hunks ?? {})) {
    if (!partners.has(path)) continue;
    throw new LibosError(
      'invalid_arguments',
      `'${path.slice(0, 200)}' is half of a rename, which lands or is discarded whole: select it without hunks.`,
      {
        details: { path: path.slice(0, 200), reason: 'rename_hunks' },
      },
    );
  }
}
