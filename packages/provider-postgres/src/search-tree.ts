import { Buffer } from 'node:buffer';
import { childPath, providerErrors, type TreeSearchAnswer, type TreeSearchEntry, type TreeSearchQuery, type WorkspacePath } from '@libos/core';
import type { Pool } from 'pg';
import { CHUNK_BYTES } from './migrations.js';
import { pathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { ancestorRefusal } from './refusal.js';
import { indexNarrows, likeNeedle } from './like-needles.js';

// Why the search is one statement (docs/provider-postgres.md#search):
// - the walk to the directory, the tree below it and every file's prefix are read in one snapshot,
//   in one round trip, so a search never sees half of a change and costs no trip per directory;
// - the needles are tested in the database on each file's prefix (`position` on bytea, exact
//   bytes), so the bytes of a file that cannot match never leave the server;
// - with the trigram index (migration 3), a file whose first chunk holds every needle's spelling
//   (`hits`, see likeNeedle) is the only one whose prefix is assembled and tested: the index only
//   skips files that cannot hold a needle, and the exact test decides among the rest. A prefix that
//   runs past the first chunk is always assembled, as the index does not see the chunks after it;
// - the tree is cut at one row past the caller's budget: a larger tree is answered incomplete at
//   the cost of that many rows, and the caller walks it instead;
// - a running sum bounds the bytes carried back; candidates past it come without their bytes.
const searchSql = (s: string, likes: number) => `
  ${likes === 0 ? '' : `WITH hits AS MATERIALIZED (SELECT c.content_id FROM ${s}.chunks c WHERE c.seq = 0${Array.from({ length: likes }, (_, i) => ` AND ${s}.spelled(c.data) LIKE $${i + 9}`).join('')})`}
  SELECT w.reached, w.entry_kind AS kind, t.names, t.kind AS child_kind, t.size_bytes, t.modified_at, t.candidate,
    CASE WHEN t.candidate AND sum(octet_length(t.prefix)) FILTER (WHERE t.candidate) OVER (ORDER BY t.id) <= $7 THEN t.prefix END AS data
  FROM ${s}.walk($1, $2::bytea[], $3) w
  LEFT JOIN LATERAL (
    SELECT l.id, l.names, l.kind, l.size_bytes,
      to_char(l.modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS modified_at,
      l.kind = 'f' AND (l.name = ANY($6::bytea[]) OR p.bytes IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM unnest($5::bytea[]) n(needle) WHERE position(n.needle IN p.bytes) = 0
      )) AS candidate,
      p.bytes AS prefix
    FROM (
      WITH RECURSIVE tree AS (
        SELECT e.id, e.name, e.kind, e.size_bytes, e.modified_at, e.content_id, ARRAY[e.name] AS names
        FROM ${s}.entries e WHERE e.parent_id = w.entry_id
        UNION ALL
        SELECT e.id, e.name, e.kind, e.size_bytes, e.modified_at, e.content_id, t.names || e.name
        FROM tree t JOIN ${s}.entries e ON e.parent_id = t.id WHERE t.kind = 'd'
      )
      SELECT * FROM tree LIMIT $4 + 1
    ) l
    LEFT JOIN LATERAL (
      SELECT coalesce(string_agg(
        CASE WHEN (c.seq::bigint + 1) * ${CHUNK_BYTES} <= m.want THEN c.data
             ELSE substring(c.data FROM 1 FOR (m.want - c.seq::bigint * ${CHUNK_BYTES})::integer) END,
        ''::bytea ORDER BY c.seq), ''::bytea) AS bytes
      FROM (SELECT least($8::bigint, l.size_bytes) AS want) m
      JOIN ${s}.chunks c ON c.content_id = l.content_id AND c.seq::bigint * ${CHUNK_BYTES} < m.want
    ) p ON l.kind = 'f'${
      likes === 0
        ? ''
        : ` AND (l.name = ANY($6::bytea[]) OR $8::bigint > ${CHUNK_BYTES} AND l.size_bytes > ${CHUNK_BYTES} OR l.content_id IN (SELECT h.content_id FROM hits h))`
    }
  ) t ON w.reached = $3 AND w.entry_kind = 'd'`;

interface SearchRow {
  reached: number;
  kind: string | null;
  names: Buffer[] | null;
  child_kind: string | null;
  size_bytes: string | null;
  modified_at: string | null;
  candidate: boolean | null;
  data: Buffer | null;
}

/** `searchTree` of core's provider interface: the tree below `path` in one statement (see above). */
export async function searchTree(
  pool: Pool,
  ref: WorkspaceRef,
  path: WorkspacePath,
  query: TreeSearchQuery,
  trigramIndex: boolean,
): Promise<TreeSearchAnswer> {
  const at = pathNames(path);
  const needles = query.needles.map((needle) => Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength));
  const always = query.alwaysNames.map((name) => Buffer.from(name, 'utf8'));
  // The index is asked only when it narrows: with no needle it can read, it would scan all of itself.
  const likes = trigramIndex ? query.needles.map(likeNeedle) : [];
  const narrowing = likes.some(indexNarrows) ? likes.filter((like) => like !== '%%') : [];
  const { rows } = await pool.query<SearchRow>(searchSql(ref.schema, narrowing.length), [
    ref.rootId,
    at.names,
    at.names.length,
    query.maxEntries,
    needles,
    always,
    query.maxCarriedBytes,
    query.maxBytes,
    ...narrowing,
  ]);
  const first = rows[0] ?? { reached: -1, kind: null };
  const refused = ancestorRefusal(at, first.reached, first.kind);
  if (refused !== undefined) throw refused;
  if (first.reached < at.names.length) throw providerErrors.notFound(path);
  if (first.kind !== 'd') throw providerErrors.notADirectory(path);
  const listed = rows.filter((row) => row.names !== null);
  if (listed.length > query.maxEntries) return { complete: false, entries: [] };
  return { complete: true, entries: listed.map((row) => entryOf(path, row, query.maxBytes)) };
}

function entryOf(root: WorkspacePath, row: SearchRow, maxBytes: number): TreeSearchEntry {
  let path = root;
  for (const name of row.names!) path = childPath(path, name.toString('utf8'));
  const name = row.names![row.names!.length - 1]!.toString('utf8');
  const modifiedAt = row.modified_at!;
  if (row.child_kind !== 'f') return { name, path, kind: 'directory', sizeBytes: null, modifiedAt, candidate: false };
  const sizeBytes = Number(row.size_bytes);
  const entry = { name, path, kind: 'file' as const, sizeBytes, modifiedAt, candidate: row.candidate === true };
  if (row.data === null) return entry;
  const bytes = new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  // Chunks that disagree with the recorded size (a store changed by hand) are left to the walk's own read to report.
  if (bytes.length !== Math.min(sizeBytes, maxBytes)) return entry;
  return { ...entry, read: { bytes, truncated: sizeBytes > maxBytes } };
}
