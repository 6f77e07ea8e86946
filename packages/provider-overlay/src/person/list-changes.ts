import { LibosError } from '@libos/core';
import { changeVersion, setVersion } from './change-version.js';
import { renamePartners } from './rename-pairs.js';
import type { StoredHead } from '../state/entry-rows.js';
import type { OverlayContext } from '../overlay-context.js';
import type { ChangeTotals, ChangesOptions, ChangesResult, OverlayChange } from '../overlay-types.js';

const HEAD =
  'path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, base_sha256, base_size, base_files, manifest_id, change, mode_of, moved_from';
const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 100_000;

/** A person's view of one changed row; `partner`: the other half of its rename, if it is one. */
export function changeOfRow(row: StoredHead, partner?: string): OverlayChange {
  const base = row.base_kind === 'file' && row.base_sha256 !== null ? { sha256: row.base_sha256, size_bytes: row.base_size ?? 0 } : null;
  const current = row.kind === 'file' && row.sha256 !== null ? { sha256: row.sha256, size_bytes: row.size ?? 0 } : null;
  const kind = row.kind === 'file' ? 'file' : row.kind === 'directory' ? 'directory' : row.base_kind === 'directory' ? 'directory' : 'file';
  return {
    path: row.path,
    change: row.change ?? 'modified',
    kind,
    base,
    current,
    files_within: row.base_kind === 'directory' ? (row.base_files ?? 0) : 0,
    ...(partner === undefined ? {} : row.kind === 'file' ? { moved_from: partner } : { moved_to: partner }),
    version: changeVersion(row, partner === undefined ? new Map() : new Map([[row.path, partner]])),
  };
}

/**
 * One page of changes in code-point order of paths, from the partial index of changed rows: the
 * cost grows with the changes, never with the lower (which is not touched at all).
 */
export function listChanges(context: OverlayContext, options: ChangesOptions = {}): ChangesResult {
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new LibosError('invalid_arguments', `The limit must be an integer from 1 to ${MAX_LIMIT}.`, { details: { limit } });
  }
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const { db } = context.state;
  // One read transaction, so the page and the totals describe the same moment.
  return db.transaction(() => {
    const rows = db
      .prepare<[string, number], StoredHead>(
        `SELECT ${HEAD}
         FROM entries WHERE change IS NOT NULL AND path > ? ORDER BY path LIMIT ?`,
      )
      .all(after ?? '', limit + 1);
    const counted = db
      .prepare<[], { change: keyof ChangeTotals; count: number }>(
        'SELECT change, count(*) AS count FROM entries WHERE change IS NOT NULL GROUP BY change',
      )
      .all();
    const totals: Record<keyof ChangeTotals, number> = { added: 0, modified: 0, deleted: 0, replaced: 0 };
    for (const { change, count } of counted) totals[change] = count;
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? encodeCursor((page.at(-1) as StoredHead).path) : null;
    // Only the first page hashes every change: a walk through all pages stays linear.
    const every = after === undefined ? db.prepare<[], StoredHead>(`SELECT ${HEAD} FROM entries WHERE change IS NOT NULL ORDER BY path`).all() : null;
    const set = every === null ? null : setVersion(every, renamePartners(db, every));
    const partners = renamePartners(db, page);
    return { changes: page.map((row) => changeOfRow(row, partners.get(row.path))), totals, next_cursor: next, set_version: set };
  })();
}

function encodeCursor(path: string): string {
  return Buffer.from(path, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const path = Buffer.from(cursor, 'base64url').toString('utf8');
  if (cursor.length === 0 || encodeCursor(path) !== cursor) {
    throw new LibosError('invalid_arguments', 'The cursor is not one that changes returned.', { details: { cursor: cursor.slice(0, 100) } });
  }
  return path;
}
