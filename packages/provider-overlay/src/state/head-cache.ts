import type { WorkspacePath } from '@libos/core';
import type Database from 'better-sqlite3';
import type { RowHead } from './entry-rows.js';

/** Facts remembered at most; past it the cache starts again, so memory stays bounded. */
const MOST_REMEMBERED = 8192;

/** How the cache reads the rows table. */
export interface HeadSource {
  /** The rows at each of `paths`. */
  fetch(paths: readonly WorkspacePath[]): RowHead[];
  /** Whether any row lies strictly below directory `path`. */
  anyBelow(path: string): boolean;
}

/**
 * Remembers which paths hold a row (and which hold none), and which directories hold no row at
 * all below them, for as long as the state is unchanged: a read of an unchanged file then costs
 * one cheap check instead of a lookup, even the first read of a file in a directory already seen
 * (docs/overlay.md, "Cost"). The state is shared with other processes, so the check asks SQLite
 * two things: this connection's `total_changes()` (our own writes; free, it reads no page) and
 * `PRAGMA data_version` (which moves whenever another connection committed). Either moving forgets all.
 */
export function createHeadCache(db: Database.Database, source: HeadSource) {
  const ownChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const known = new Map<string, RowHead | null>();
  const emptyBelow = new Set<string>();
  // Directories known to hold rows below them: not asked again until the state changes.
  const rowsBelow = new Set<string>();
  let own = -1;
  let others = -1;
  const forget = (): void => {
    known.clear();
    emptyBelow.clear();
    rowsBelow.clear();
  };
  /** `prefixes`: the root's children down to one path, each the parent of the next. */
  return (prefixes: readonly WorkspacePath[]): RowHead[] => {
    const nowOwn = ownChanges.get() as number;
    const nowOthers = dataVersion.get() as number;
    if (nowOwn !== own || nowOthers !== others || known.size + emptyBelow.size + rowsBelow.size > MOST_REMEMBERED) {
      forget();
      own = nowOwn;
      others = nowOthers;
    }
    // Below a directory known to hold no row, no prefix needs asking.
    let depth = prefixes.length;
    if (emptyBelow.has('.')) depth = 0;
    else {
      for (let index = 0; index < prefixes.length - 1; index++) {
        if (emptyBelow.has(prefixes[index] as string)) {
          depth = index + 1;
          break;
        }
      }
    }
    const asked = prefixes.slice(0, depth);
    const missing = asked.filter((path) => !known.has(path));
    if (missing.length > 0) {
      const found = source.fetch(missing);
      const parent = depth === prefixes.length ? (prefixes.length >= 2 ? (prefixes.at(-2) as string) : '.') : undefined;
      const parentEmpty = parent !== undefined && !rowsBelow.has(parent) && !source.anyBelow(parent);
      // A commit between the check and these reads: what is remembered may be older than what
      // was read, so this answer is one fresh fetch and nothing is kept.
      if ((dataVersion.get() as number) !== others) {
        forget();
        own = -1;
        return source.fetch(prefixes);
      }
      const byPath = new Map(found.map((row) => [row.path, row]));
      for (const path of missing) known.set(path, byPath.get(path) ?? null);
      if (parentEmpty) emptyBelow.add(parent);
      else if (parent !== undefined) rowsBelow.add(parent);
    }
    const rows: RowHead[] = [];
    for (const path of asked) {
      const row = known.get(path);
      if (row !== undefined && row !== null) rows.push(row);
    }
    return rows;
  };
}
