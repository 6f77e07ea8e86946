import { existsSync, linkSync, rmSync } from 'node:fs';
import { LibosError } from '@libos/core';
import type Database from 'better-sqlite3';
import type { OverlayContext } from '../overlay-context.js';
import type { ForkResult } from '../overlay-types.js';
import { openStateDatabase } from '../state/state-database.js';
import { readModeOf } from '../state/mode-of.js';
import { decodeStatePath } from '../state/state-path.js';

/**
 * Copies the agent's changes into a new state file `to` (docs/overlay.md, "Forks"): the rows, their
 * bytes, the manifests and kept merge bases they name, and the root the state belongs to, each an
 * indexed read of what the overlay holds, so the time grows with the changes, never with the
 * lower. History and applies stay with the original (an apply is undone from where it was made).
 * The new file appears whole or not at all: it is built beside `to` and linked in, never over one.
 */
export function forkOverlay(context: OverlayContext, to: string, lowerRoot: string | undefined): ForkResult {
  if (typeof to !== 'string' || to === '' || to === ':memory:' || existsSync(to)) {
    throw new LibosError('invalid_arguments', 'fork needs a new state file (--to) that does not exist yet.', {
      details: { reason: 'fork_target_exists' },
    });
  }
  const building = `${to}.forking-${process.pid}`;
  rmSync(building, { force: true });
  const target = openStateDatabase(building, lowerRoot, 'agent');
  let changes = 0;
  try {
    const source = context.state.db;
    // One read transaction on the source: the fork is one moment of the overlay.
    source.transaction(() => {
      target.write(() => {
        copyRows(source, target.db, 'lower_root', 'SELECT * FROM lower_root', 'INSERT OR REPLACE');
        copyRows(source, target.db, 'entries', 'SELECT * FROM entries', 'INSERT', decodePaths);
        copyRows(source, target.db, 'segments', 'SELECT * FROM segments', 'INSERT', decodePaths);
        copyRows(
          source,
          target.db,
          'manifests',
          'SELECT * FROM manifests WHERE manifest_id IN (SELECT manifest_id FROM entries WHERE manifest_id IS NOT NULL)',
        );
        copyRows(source, target.db, 'texts', 'SELECT * FROM texts WHERE sha256 IN (SELECT base_sha256 FROM entries WHERE base_sha256 IS NOT NULL)');
        changes = (source.prepare('SELECT count(*) AS count FROM entries WHERE change IS NOT NULL').get() as { count: number }).count;
      });
    })();
  } catch (error) {
    target.close();
    rmSync(building, { force: true });
    throw error;
  }
  target.close();
  try {
    linkSync(building, to);
  } catch (error) {
    throw new LibosError('invalid_arguments', 'fork needs a new state file (--to) that does not exist yet.', {
      details: { reason: 'fork_target_exists' },
      cause: error,
    });
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  }
  return { state: to, changes };
}

type Row = Record<string, unknown>;

/**
 * A row's workspace paths (its own, the lower file whose mode it carries, the one it was moved from) decoded as every read
 * of the state decodes them (`state-path.ts`): a path no libOS call could have stored throws its
 * refusal, so a crafted state is never carried into a fork (nothing of the fork is left behind).
 */
function decodePaths(row: Row): Row {
  if (typeof row.mode_of === 'string') readModeOf(row.mode_of);
  if (typeof row.moved_from === 'string') decodeStatePath(row.moved_from);
  return { ...row, path: decodeStatePath(String(row.path)) };
}

function copyRows(
  source: Database.Database,
  target: Database.Database,
  table: string,
  select: string,
  verb = 'INSERT',
  decode = (row: Row) => row,
): void {
  let insert: Database.Statement | undefined;
  for (const stored of source.prepare(select).iterate() as IterableIterator<Row>) {
    const row = decode(stored);
    const columns = Object.keys(row);
    insert ??= target.prepare(`${verb} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((name) => `@${name}`).join(', ')})`);
    insert.run(row);
  }
}
