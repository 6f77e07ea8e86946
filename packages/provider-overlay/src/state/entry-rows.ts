import type { WorkspacePath } from '@libos/core';
import type Database from 'better-sqlite3';
import { createHeadCache } from './head-cache.js';
import { decodeRow, decodeStatePath } from './state-path.js';

/** What the agent made at a path: a file, a directory, or a whiteout that hides the lower entry. */
export type RowKind = 'file' | 'directory' | 'whiteout';

/** The lower entry at a path the first time the agent changed it. */
export type BaseKind = 'missing' | 'file' | 'directory';

/** The kind of change a row shows a person, or null when it equals its base. */
export type ChangeKind = 'added' | 'modified' | 'deleted' | 'replaced';

/** One overlay row: what the agent sees at `path`, and the base it was made from. */
export interface EntryRow {
  readonly path: WorkspacePath;
  readonly parent: string;
  readonly name: string;
  readonly kind: RowKind;
  /** 1: the lower below this directory is hidden; 0: merged with the lower (only fixtures make these). */
  readonly opaque: number;
  /** A file's bytes the overlay holds: all of them, or those after `lower_bytes`. */
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
  /**
   * The lower file this file was moved from (docs/overlay.md, "Renames"): set by a rename of a file
   * that has a lower base, carried through later writes and moves; null for any other file.
   */
  readonly moved_from?: string | null;
  /**
   * How many first bytes of a file are its base file, left on the lower (a first append to an
   * unchanged lower file copies nothing); `content` and the segments hold the bytes from there on.
   * 0 (or absent, in rows from before) when the overlay holds every byte.
   */
  readonly lower_bytes?: number;
  /** The SHA-256 state over every byte of the file, which the next append carries on; null: not yet known. */
  readonly hash_state?: Buffer | null;
}

/** A row without its bytes, for listings and change lists. */
export type RowHead = Omit<EntryRow, 'content'>;

/** A row head as SQLite gives it back, its path not yet decoded (`state-path.ts`). */
export type StoredHead = Omit<RowHead, 'path'> & { readonly path: string };

const HEAD =
  'path, parent, name, kind, opaque, sha256, size, modified_at, base_kind, base_sha256, base_size, base_files, manifest_id, change, mode_of, lower_bytes, hash_state, moved_from';

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
  const head = db.prepare<[string], StoredHead>(`SELECT ${HEAD} FROM entries WHERE path = ?`);
  const segmentsOf = db.prepare<[string], { bytes: Buffer }>('SELECT bytes FROM segments WHERE path = ? ORDER BY start');
  // The pieces of [from, to) held in segments: from the segment that holds `from` on, each cut by SQLite.
  const pieces = db.prepare<{ path: string; from: number; to: number }, { start: number; piece: Buffer }>(
    `SELECT start, substr(bytes, max(@from - start, 0) + 1, min(start + length(bytes), @to) - max(start, @from)) AS piece FROM segments
     WHERE path = @path AND start < @to AND start >= (SELECT coalesce(max(start), 0) FROM segments WHERE path = @path AND start <= @from)
     ORDER BY start`,
  );
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO entries (${HEAD}, content) VALUES (@path, @parent, @name, @kind, @opaque, @sha256, @size, @modified_at,
     @base_kind, @base_sha256, @base_size, @base_files, @manifest_id, @change, @mode_of, @lower_bytes, @hash_state, @moved_from, NULL)`,
  );
  const insertSegment = db.prepare<[string, number, Buffer]>('INSERT INTO segments (path, start, bytes) VALUES (?, ?, ?)');
  const dropSegments = db.prepare<[string]>('DELETE FROM segments WHERE path = ?');
  const dropSegmentsBefore = db.prepare<[string, number]>('DELETE FROM segments WHERE path = ? AND start < ?');
  const dropSegmentsFrom = db.prepare<[string, number]>('DELETE FROM segments WHERE path = ? AND start >= ?');
  const cutSegment = db.prepare<[number, string, number, number]>(
    'UPDATE segments SET bytes = substr(bytes, 1, ? - start) WHERE path = ? AND start < ? AND start + length(bytes) > ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM entries WHERE path = ?');
  // Every descendant of P sorts in [P + '/', P + '0'): '0' is the code point after '/'.
  const under = db.prepare<[string, string], StoredHead>(`SELECT ${HEAD} FROM entries WHERE path >= ? AND path < ? ORDER BY path`);
  const removeUnder = db.prepare<[string, string]>('DELETE FROM entries WHERE path >= ? AND path < ?');
  const removeSegmentsUnder = db.prepare<[string, string]>('DELETE FROM segments WHERE path >= ? AND path < ?');
  const children = db.prepare<[string, string], StoredHead>(`SELECT ${HEAD} FROM entries WHERE parent = ? AND name > ? ORDER BY name`);
  // One statement for any depth: the prefixes travel as one JSON array.
  const headsIn = db.prepare<[string], StoredHead>(`SELECT ${HEAD} FROM entries WHERE path IN (SELECT value FROM json_each(?))`);
  const anyUnder = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM entries WHERE path >= ? AND path < ? LIMIT 1');
  const range = (path: string): [string, string] => (path === '.' ? ['', '\u{10FFFF}'] : [`${path}/`, `${path}0`]);
  const heads = createHeadCache(db, {
    fetch(paths) {
      // Each row is at one of the paths asked for: it is given that path, already a WorkspacePath.
      const only = paths.length === 1 ? paths[0] : undefined;
      if (only !== undefined) {
        const row = head.get(only);
        return row === undefined ? [] : [{ ...row, path: only }];
      }
      const asked = new Map<string, WorkspacePath>(paths.map((path) => [path, path]));
      return headsIn.all(JSON.stringify(paths)).map((row) => ({ ...row, path: asked.get(row.path) ?? decodeStatePath(row.path) }));
    },
    anyBelow: (path) => anyUnder.get(...range(path)) !== undefined,
  });
  const withContent = (row: RowHead): EntryRow => ({
    ...row,
    content: row.kind === 'file' ? Buffer.concat(segmentsOf.all(row.path).map((segment) => segment.bytes)) : null,
  });
  const putHead = (row: RowHead): void => {
    // Rows from before the mode and segment columns (undo images, journals) carry none.
    upsert.run({
      ...row,
      mode_of: row.mode_of ?? null,
      moved_from: row.moved_from ?? null,
      lower_bytes: row.lower_bytes ?? 0,
      hash_state: row.hash_state ?? null,
      change: changeOf(row),
    });
  };
  return {
    /** The row with the bytes the overlay holds for it (all of a file's, or those after `lower_bytes`). */
    get: (path: WorkspacePath): EntryRow | undefined => {
      const found = head.get(path);
      return found === undefined ? undefined : withContent({ ...found, path });
    },
    head(path: WorkspacePath): RowHead | undefined {
      const found = head.get(path);
      return found === undefined ? undefined : { ...found, path };
    },
    /** The rows at each of `paths` (ancestors of one path): remembered while the state is unchanged, else one query. */
    heads: (paths: readonly WorkspacePath[]): RowHead[] => (paths.length === 0 ? [] : heads(paths)),
    /** The bytes of a file row from offset `from` to `to` that the overlay holds (both at or past `lower_bytes`). */
    stored(path: string, from: number, to: number): Buffer {
      if (to <= from) return Buffer.alloc(0);
      return Buffer.concat(pieces.all({ path, from, to }).map((row) => row.piece));
    },
    /** Puts a row with its bytes (`content`, from `lower_bytes` on), replacing whatever bytes the path had. */
    put(row: EntryRow): void {
      putHead(row);
      dropSegments.run(row.path);
      if (row.kind === 'file' && row.content !== null && row.content.length > 0) insertSegment.run(row.path, row.lower_bytes ?? 0, row.content);
    },
    /** Puts a row's head, keeping the bytes the path holds. */
    putHead,
    /** Adds `bytes` at offset `start` (the file's size before) of a file row. */
    appendBytes(path: string, start: number, bytes: Buffer): void {
      if (bytes.length > 0) insertSegment.run(path, start, bytes);
    },
    /** Cuts a file row's bytes to its first `size` (an append undone). */
    truncate(path: string, size: number): void {
      dropSegmentsFrom.run(path, size);
      cutSegment.run(size, path, size, size);
    },
    /** Forgets a file row's bytes before offset `size`: they now lie on the lower (`lower_bytes`). */
    dropBefore: (path: string, size: number): void => void dropSegmentsBefore.run(path, size),
    remove(path: string): void {
      remove.run(path);
      dropSegments.run(path);
    },
    /** Every row strictly below `path`, in path order. */
    below: (path: WorkspacePath): EntryRow[] => under.all(...range(path)).map((row) => withContent(decodeRow(row))),
    removeBelow(path: string): void {
      removeUnder.run(...range(path));
      removeSegmentsUnder.run(...range(path));
    },
    /** Child rows of `parent` with names after `after`, in name order, read lazily. */
    *children(parent: WorkspacePath, after = ''): IterableIterator<RowHead> {
      for (const row of children.iterate(parent, after)) yield decodeRow(row);
    },
  };
}

/** The statements over the rows table. */
export type RowStatements = ReturnType<typeof createRowStatements>;
