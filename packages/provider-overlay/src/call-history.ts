import { LibosError } from '@libos/core';
import type Database from 'better-sqlite3';
import type { EntryRow, RowHead, RowStatements } from './entry-rows.js';

/** Records one mutating call's row changes so `rewind` can put every row back as it was. */
export interface CallEditor {
  put(row: EntryRow): void;
  /**
   * Puts `row`, which is `before` with bytes added at its end: the undo image keeps `before`
   * without its bytes (they are the first `before.size` bytes of `row`), so an append costs the
   * history what it appended, not the file.
   */
  extend(row: EntryRow, before: RowHead): void;
  remove(path: string): void;
  /** Removes every row strictly below `path`. */
  removeBelow(path: string): void;
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
  const prefixOf = (path: string, size: number): Buffer => {
    const found = rows.prefix(path, size);
    if (found === undefined || found.bytes.length !== size) {
      throw new LibosError('provider_failure', `The history of '${path}' does not match the overlay; nothing was rewound.`, {
        effect: 'none',
        details: { path },
      });
    }
    return found.bytes;
  };

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
        extend(row, before) {
          if (!saved.has(row.path)) {
            saved.add(row.path);
            insertUndo.run(seq, ord++, row.path, JSON.stringify({ ...headOf(before), [PREFIX]: before.size ?? 0 }), null);
          }
          rows.put(row);
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
        for (const undo of undoOf.all(later)) {
          const image = undo.image === null ? null : (JSON.parse(undo.image) as RowHead & { [PREFIX]?: number });
          // Undone newest first: the row now is the one this call wrote, so its prefix is the one before.
          const content = image?.[PREFIX] === undefined ? undo.content : prefixOf(undo.path, image[PREFIX]);
          rows.remove(undo.path);
          if (image !== null) {
            const { [PREFIX]: _prefix, ...head } = image;
            rows.put({ ...head, content });
          }
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

function headOf(row: RowHead): RowHead {
  const { content: _content, ...head } = row as EntryRow;
  return head;
}

function imageOf(row: EntryRow | undefined): UndoImage {
  if (row === undefined) return { image: null, content: null };
  const { content, ...head } = row;
  return { image: JSON.stringify(head), content };
}

/** The history statements. */
export type History = ReturnType<typeof createHistory>;
