import { isGitAlias, providerErrors, type DeleteDirectoryOptions, type WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './change-queries.js';
import { pathNames, prefixOf, type PathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';

/** Names fetched per round trip while a recursive delete looks for `.git`; bounds its memory. */
const SCAN_BATCH = 2000;

// Every spelling isGitAlias accepts holds a "g" or "G" or a character outside ASCII (a default
// ignorable, a case-mapping oddity such as U+0130), so the database skips every other name and
// only the rest travel to be judged by isGitAlias itself.
const candidate = `(strpos(lower(convert_from(x.name, 'UTF8')), 'g') > 0 OR octet_length(x.name) <> length(convert_from(x.name, 'UTF8')))`;

/**
 * Deletes a directory and everything below it in one transaction under the workspace lock: it
 * refuses a tree holding a `.git` alias at any depth before deleting anything, and otherwise
 * removes the whole tree in one statement, so a crash or a lost connection leaves all of it or
 * none (docs/provider-postgres.md#transactions).
 */
export async function deleteTree(pool: Pool, ref: WorkspaceRef, path: WorkspacePath, options: DeleteDirectoryOptions): Promise<{ deleted: boolean }> {
  const at = pathNames(path);
  if (at.names.length === 0) throw providerErrors.rootRefused(path);
  const s = ref.schema;
  return inTransaction(pool, path, async (client) => {
    const { rows: locked } = await client.query<{ locked: boolean }>(`SELECT ${s}.lock_workspace($1) AS locked`, [ref.workspaceId]);
    if (locked[0]?.locked !== true) throw providerErrors.rootGone(path);
    const { rows } = await client.query<{ reached: number; entry_id: string | null; entry_kind: string | null }>(
      `SELECT reached, entry_id, entry_kind FROM ${s}.walk($1, $2::bytea[], $3)`,
      [ref.rootId, at.names, at.names.length],
    );
    const walk = rows[0] ?? { reached: -1, entry_id: null, entry_kind: null };
    const count = at.names.length;
    if (walk.reached === -1) throw providerErrors.rootGone(path);
    if (walk.reached < count && walk.entry_kind !== 'd') throw providerErrors.notADirectory(path, prefixOf(at, walk.reached));
    if (walk.reached < count) {
      if (options.missingOk) return { deleted: false };
      throw providerErrors.notFound(path, prefixOf(at, walk.reached + 1));
    }
    if (walk.entry_kind !== 'd') throw providerErrors.notADirectory(path);
    const top = walk.entry_id ?? '';
    await refuseGitAliases(client, s, top, at, options.signal);
    checkSignal(options.signal, path);
    // One statement: the self-referencing foreign key is checked at its end, over the whole tree.
    await client.query(
      `WITH RECURSIVE tree(id) AS (
         SELECT $1::bigint UNION ALL SELECT x.id FROM ${s}.entries x JOIN tree t ON x.parent_id = t.id)
       DELETE FROM ${s}.entries WHERE id IN (SELECT id FROM tree)`,
      [top],
    );
    return { deleted: true };
  });
}

/** Streams the candidate names below `top` through a cursor and refuses at the first `.git` alias. */
async function refuseGitAliases(client: PoolClient, s: string, top: string, at: PathNames, signal: AbortSignal | undefined): Promise<void> {
  // `top` is an id the database gave us (digits only), so it is safe in the cursor's text.
  if (!/^\d+$/.test(top)) throw providerErrors.failure(at.path, null, { effect: 'none' });
  await client.query(
    `DECLARE libos_scan NO SCROLL CURSOR FOR
       WITH RECURSIVE tree(id) AS (
         SELECT ${top}::bigint UNION ALL SELECT x.id FROM ${s}.entries x JOIN tree t ON x.parent_id = t.id)
       SELECT x.id, x.name FROM tree t JOIN ${s}.entries x ON x.id = t.id WHERE x.id <> ${top} AND ${candidate}`,
  );
  for (;;) {
    checkSignal(signal, at.path);
    const { rows } = await client.query<{ id: string; name: Buffer }>(`FETCH ${SCAN_BATCH} FROM libos_scan`);
    for (const row of rows) {
      if (isGitAlias(row.name.toString('utf8'))) {
        throw providerErrors.protectedPath(at.path, await pathBelow(client, s, top, row.id, at.path));
      }
    }
    if (rows.length < SCAN_BATCH) break;
  }
  await client.query('CLOSE libos_scan');
}

/** The canonical path of entry `id`, which lies below `top` (whose path is `topPath`). */
async function pathBelow(client: PoolClient, s: string, top: string, id: string, topPath: WorkspacePath): Promise<WorkspacePath> {
  const { rows } = await client.query<{ name: Buffer }>(
    `WITH RECURSIVE up(id, parent_id, name, depth) AS (
       SELECT id, parent_id, name, 0 FROM ${s}.entries WHERE id = $1
       UNION ALL SELECT x.id, x.parent_id, x.name, u.depth + 1 FROM ${s}.entries x JOIN up u ON x.id = u.parent_id WHERE u.id <> $2)
     SELECT name FROM up WHERE id <> $2 ORDER BY depth DESC`,
    [id, top],
  );
  return `${topPath}/${rows.map((row) => row.name.toString('utf8')).join('/')}` as WorkspacePath;
}
