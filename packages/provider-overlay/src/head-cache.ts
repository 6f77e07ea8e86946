import type Database from 'better-sqlite3';
import type { RowHead } from './entry-rows.js';

/** Prefixes remembered at most; past it the cache starts again, so memory stays bounded. */
const MOST_REMEMBERED = 8192;

/**
 * Remembers which paths hold a row (and which hold none) between calls, for as long as the state
 * is unchanged: an unchanged read then costs one cheap check instead of a lookup (docs/overlay.md,
 * "Cost"). The state is shared with other processes, so the check asks SQLite two things: this
 * connection's `total_changes()` (our own writes; free, it reads no page) and `PRAGMA
 * data_version` (which moves whenever another connection committed). Either moving forgets all.
 */
export function createHeadCache(db: Database.Database, fetch: (paths: readonly string[]) => RowHead[]) {
  const ownChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const known = new Map<string, RowHead | null>();
  let own = -1;
  let others = -1;
  return (paths: readonly string[]): RowHead[] => {
    const nowOwn = ownChanges.get() as number;
    const nowOthers = dataVersion.get() as number;
    if (nowOwn !== own || nowOthers !== others || known.size > MOST_REMEMBERED) {
      known.clear();
      own = nowOwn;
      others = nowOthers;
    }
    const missing = paths.filter((path) => !known.has(path));
    if (missing.length > 0) {
      const found = fetch(missing);
      // A commit between the check and the fetch: what is remembered may be older than what was
      // fetched, so this answer is one fresh fetch and nothing is kept.
      if ((dataVersion.get() as number) !== others) {
        known.clear();
        own = -1;
        return fetch(paths);
      }
      const byPath = new Map(found.map((row) => [row.path, row]));
      for (const path of missing) known.set(path, byPath.get(path) ?? null);
    }
    const rows: RowHead[] = [];
    for (const path of paths) {
      const row = known.get(path);
      if (row !== undefined && row !== null) rows.push(row);
    }
    return rows;
  };
}
