import type { WorkspacePath } from '@libos/core';
import type Database from 'better-sqlite3';
import { createHeadCache } from './head-cache.js';

/** What the agent made at a path: a file, a directory, or a whiteout that hides the lower entry. */
export type RowKind = 'file' | 'directory' | 'whiteout';

/** The lower entry at a path the first time the agent changed it. */
export type BaseKind = 'missing' | 'file' | 'directory';

/** The kind of change a row shows a person, or null when it equals its base. */
export type ChangeKind = 'added' | 'modified' | 'deleted' | 'replaced';

/** One overlay row: what the agent sees at `path`, and the base it was made from. */
export interface EntryRow {
  readonly path: string;
  readonly parent: string;
  readonly name: string;
  readonly kind: RowKind;
  /** 1: the lower below this directory is hidden; 0: merged with the lower (only fixtures make these). */
  readonly opaque: number;
  readonly content: Buffer | null;
  readonly sha256: string | null;
  readonly size: number | null;
  readonly modified_at: string;
  readonly base_kind: BaseKind;
  readonly base_sha256: string | null;
  readonly base_size: number | null;
  /** Files a base directory held (its manifest's files). */
  readonly base_files: number | null;
  readonly manifest_id: number | null;
  readonly change: ChangeKind | null;
  /**
   * Whose mode a file carries (docs/overlay.md, "Modes"): null, its own lower file's (or a new
   * file's default when it has none); a path, that lower file's (a copy or a move of it); '', a
   * new file's default even where a lower file was.
   */
  readonly mode_of?: string | null;
}

/** A row without its bytes, for listings and change lists. */
export type RowHead = Omit<EntryRow, 'content'>;

const HEAD =
  'path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, base_sha256, base_size, base_files, manifest_id, change, mode_of';
const COLUMNS = `${HEAD}, content`;

/** The change a person sees for `row` (docs/overlay.md, "The base"). */
export function changeOf(row: Pick<EntryRow, 'kind' | 'sha256' | 'base_kind' | 'base_sha256' | 'base_files'>): ChangeKind | null {
  if (row.kind === 'whiteout') return row.base_kind === 'missing' ? null : 'deleted';
  if (row.base_kind === 'missing') return 'added';
  if (row.kind === 'file') return row.base_kind === 'file' ? (row.sha256 === row.base_sha256 ? null : 'modified') : 'replaced';
  // A directory re-made where an empty directory was deleted is what was there: no change.
  if (row.base_kind === 'directory' && row.base_files === 0) return null;
  return 'replaced';
}

/** Prepared statements over the rows table; every method is synchronous, so a caller's transaction spans it. */
export function createRowStatements(db: Database.Database) {
  const get = db.prepare<[string], EntryRow>(`SELECT ${COLUMNS} FROM entries WHERE path = ?`);
  const head = db.prepare<[string], RowHead>(`SELECT ${HEAD} FROM entries WHERE path = ?`);
  const content = db.prepare<[number, string], { bytes: Buffer | null; size: number | null }>(
    'SELECT substr(content, 1, ?) AS bytes, size FROM entries WHERE path = ?',
  );
  const slice = db.prepare<[number, number, string], { bytes: Buffer | null }>('SELECT substr(content, ?, ?) AS bytes FROM entries WHERE path = ?');
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO entries (${COLUMNS}) VALUES (@path, @parent, @name, @kind, @opaque, @sha256, @size, @modified_at,
     @base_kind, @base_sha256, @base_size, @base_files, @manifest_id, @change, @mode_of, @content)`,
  );
  const remove = db.prepare<[string]>('DELETE FROM entries WHERE path = ?');
  // Every descendant of P sorts in [P + '/', P + '0'): '0' is the code point after '/'.
  const under = db.prepare<[string, string], EntryRow>(`SELECT ${COLUMNS} FROM entries WHERE path >= ? AND path < ? ORDER BY path`);
  const removeUnder = db.prepare<[string, string]>('DELETE FROM entries WHERE path >= ? AND path < ?');
  const children = db.prepare<[string, string], RowHead>(`SELECT ${HEAD} FROM entries WHERE parent = ? AND name > ? ORDER BY name`);
  // One statement for any depth: the prefixes travel as one JSON array.
  const headsIn = db.prepare<[string], RowHead>(`SELECT ${HEAD} FROM entries WHERE path IN (SELECT value FROM json_each(?))`);
  const anyUnder = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM entries WHERE path >= ? AND path < ? LIMIT 1');
  const range = (path: string): [string, string] => (path === '.' ? ['', '\u{10FFFF}'] : [`${path}/`, `${path}0`]);
  const heads = createHeadCache(db, {
    fetch(paths) {
      if (paths.length !== 1) return headsIn.all(JSON.stringify(paths));
      const row = head.get(paths[0] as string);
      return row === undefined ? [] : [row];
    },
    anyBelow: (path) => anyUnder.get(...range(path)) !== undefined,
  });
  return {
    get: (path: string): EntryRow | undefined => get.get(path),
    head: (path: string): RowHead | undefined => head.get(path),
    /** The rows at each of `paths` (ancestors of one path): remembered while the state is unchanged, else one query. */
    heads: (paths: readonly string[]): RowHead[] => (paths.length === 0 ? [] : heads(paths)),
    /** At most `maxBytes` bytes of a file row, and its whole size. */
    prefix(path: string, maxBytes: number): { bytes: Buffer; size: number } | undefined {
      const found = content.get(maxBytes, path);
      if (found === undefined) return undefined;
      return { bytes: found.bytes ?? Buffer.alloc(0), size: found.size ?? 0 };
    },
    /** `length` bytes of a file row from byte `start` (both within its size). */
    slice(path: string, start: number, length: number): Buffer {
      if (length === 0) return Buffer.alloc(0);
      return slice.get(start + 1, length, path)?.bytes ?? Buffer.alloc(0);
    },
    put(row: EntryRow): void {
      // Rows from before the mode column (undo images, journals) carry none: their own mode.
      upsert.run({ ...row, mode_of: row.mode_of ?? null, change: changeOf(row) });
    },
    remove: (path: string): void => void remove.run(path),
    /** Every row strictly below `path`, in path order. */
    below: (path: string): EntryRow[] => under.all(...range(path)),
    removeBelow: (path: string): void => void removeUnder.run(...range(path)),
    /** Child rows of `parent` with names after `after`, in name order, read lazily. */
    children: (parent: WorkspacePath | string, after = ''): IterableIterator<RowHead> => children.iterate(parent, after),
  };
}

/** The statements over the rows table. */
export type RowStatements = ReturnType<typeof createRowStatements>;
