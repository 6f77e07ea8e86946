import { LibosError, type WorkspacePath } from '@libos/core';
import type Database from 'better-sqlite3';
import type { EntryRow, RowHead, RowStatements, StoredHead } from './entry-rows.js';
import { decodeRow, decodeStatePath } from './state-path.js';

/** Records one mutating call's row changes so `rewind` can put every row back as it was. */
export interface CallEditor {
  put(row: EntryRow): void;
  /**
   * Adds `bytes` at the end of the file row `before`, which becomes `after`: the bytes are one more
   * segment, and the undo image keeps `before` without its bytes (they are the first `before.size`
   * bytes after), so an append costs the state and the history what it appended, not the file.
   */
  append(before: RowHead, after: RowHead, bytes: Buffer): void;
  remove(path: WorkspacePath): void;
  /** Removes every row strictly below `path`. */
  removeBelow(path: WorkspacePath): void;
}

interface UndoImage {
  readonly image: string | null;
  readonly content: Buffer | null;
}

/** Statements over the call history and its undo images. */
export function createHistory(db: Database.Database, rows: RowStatements) {
  const insertCall = db.prepare<[string, string, string]>('INSERT INTO calls (tool, paths, at) VALUES (?, ?, ?)');
  const insertUndo = db.prepare<[number, number, string, string | null, Buffer | null]>(
    'INSERT INTO undo_rows (seq, ord, path, image, content) VALUES (?, ?, ?, ?, ?)',
  );
  const listCalls = db.prepare<[], { seq: number; tool: string; paths: string; at: string }>('SELECT seq, tool, paths, at FROM calls ORDER BY seq');
  const callsAfter = db.prepare<[number], { seq: number }>('SELECT seq FROM calls WHERE seq > ? ORDER BY seq DESC');
  const undoOf = db.prepare<[number], { path: string; image: string | null; content: Buffer | null }>(
    'SELECT path, image, content FROM undo_rows WHERE seq = ? ORDER BY ord DESC',
  );
  const dropCall = db.prepare<[number]>('DELETE FROM calls WHERE seq = ?');
  const dropUndo = db.prepare<[number]>('DELETE FROM undo_rows WHERE seq = ?');
  const floor = db.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'history_floor'");
  const lastSeq = db.prepare<[], { seq: number | null }>("SELECT seq FROM sqlite_sequence WHERE name = 'calls'");
  const setFloor = db.prepare<[number]>("UPDATE meta SET value = ? WHERE key = 'history_floor'");
  const clearCalls = db.prepare('DELETE FROM calls');
  const clearUndo = db.prepare('DELETE FROM undo_rows');

  return {
    /** Starts call `tool` on `paths` inside the caller's transaction; returns the editor that keeps undo images. */
    begin(tool: string, paths: readonly string[], at: string): CallEditor {
      const seq = Number(insertCall.run(tool, JSON.stringify(paths), at).lastInsertRowid);
      const saved = new Set<string>();
      let ord = 0;
      const save = (row: EntryRow | undefined, path: string): void => {
        if (saved.has(path)) return;
        saved.add(path);
        const image = imageOf(row);
        insertUndo.run(seq, ord++, path, image.image, image.content);
      };
      return {
        put(row) {
          save(rows.get(row.path), row.path);
          rows.put(row);
        },
        append(before, after, bytes) {
          if (!saved.has(before.path)) {
            saved.add(before.path);
            insertUndo.run(seq, ord++, before.path, JSON.stringify({ ...headOf(before), [PREFIX]: before.size ?? 0 }), null);
          }
          rows.putHead(after);
          rows.appendBytes(after.path, before.size ?? 0, bytes);
        },
        remove(path) {
          save(rows.get(path), path);
          rows.remove(path);
        },
        removeBelow(path) {
          for (const row of rows.below(path)) save(row, row.path);
          rows.removeBelow(path);
        },
      };
    },
    list: () => listCalls.all().map((call) => ({ seq: call.seq, tool: call.tool, paths: JSON.parse(call.paths) as string[], at: call.at })),
    floor: (): number => floor.get()?.value ?? 0,
    /** Undoes every call after `seq`, newest first, inside the caller's transaction; returns how many. */
    rewindTo(seq: number): number {
      let undone = 0;
      for (const { seq: later } of callsAfter.all(seq)) {
        for (const stored of undoOf.all(later)) {
          // A crafted image fails the whole rewind here, in its transaction: nothing is rewound.
          const path = decodeStatePath(stored.path);
          const image = stored.image === null ? null : decodeRow(JSON.parse(stored.image) as StoredHead & { [PREFIX]?: number });
          if (image !== null && image[PREFIX] !== undefined) {
            // Undone newest first: the row now is the one this append wrote, so its bytes are cut back.
            const { [PREFIX]: size, ...head } = image;
            checkGrown(rows.head(path), size, path);
            rows.truncate(path, size);
            rows.putHead(head);
            continue;
          }
          rows.remove(path);
          if (image !== null) rows.put({ ...image, content: stored.content });
        }
        dropUndo.run(later);
        dropCall.run(later);
        undone++;
      }
      return undone;
    },
    /** Forgets the history (after an apply or a discard): later rewinds cannot go past this point. */
    clear(): void {
      setFloor.run(lastSeq.get()?.seq ?? 0);
      clearCalls.run();
      clearUndo.run();
    },
  };
}

/** The image key of an appended row: its bytes are this many first bytes of the row after the call. */
const PREFIX = 'prefix_of_next';

// An image keeps no hash state (a Buffer would not survive JSON): the next append computes it again.
function headOf(row: RowHead): RowHead {
  const { content: _content, hash_state: _state, ...head } = row as EntryRow;
  return head;
}

function imageOf(row: EntryRow | undefined): UndoImage {
  if (row === undefined) return { image: null, content: null };
  return { image: JSON.stringify(headOf(row)), content: row.content };
}

// The row an append is undone on must hold at least what it held before; anything else is a state
// that does not match its history, and the rewind's transaction is rolled back.
function checkGrown(row: RowHead | undefined, size: number, path: string): void {
  if (row !== undefined && row.kind === 'file' && (row.size ?? 0) >= size) return;
  throw new LibosError('provider_failure', `The history of '${path}' does not match the overlay; nothing was rewound.`, {
    effect: 'none',
    details: { path },
  });
}

/** The history statements. */
export type History = ReturnType<typeof createHistory>;
