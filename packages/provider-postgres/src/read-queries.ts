import {
  FILE_MODE_BITS,
  childPath,
  providerErrors,
  type DirectoryEntry,
  type DirectoryListing,
  type FileRead,
  type PathStatus,
  type WorkspacePath,
} from '@libos/core';
import type { Pool } from 'pg';
import { CHUNK_BYTES } from './migrations.js';
import { pathNames } from './path-names.js';
import { ancestorRefusal } from './refusal.js';

/** Where a workspace lives: its schema (quoted), its row and its root entry. */
export interface WorkspaceRef {
  readonly schema: string;
  readonly workspaceId: string;
  readonly rootId: string;
}

interface WalkRow {
  reached: number;
  kind: string | null;
  size_bytes: string | null;
  modified_at: Date | null;
}

// Each read is one statement: the walk (a STABLE function) and what it reads next share one
// snapshot, so a read never sees half of a change, and costs one round trip.
const statSql = (s: string) => `
  SELECT w.reached, e.kind, e.size_bytes, e.modified_at, e.mode
  FROM ${s}.walk($1, $2::bytea[], $3) w LEFT JOIN ${s}.entries e ON e.id = w.entry_id`;

const readSql = (s: string) => `
  SELECT w.reached, e.kind, e.size_bytes, e.modified_at,
    CASE WHEN w.reached = $3 AND e.kind = 'f' THEN (
      SELECT string_agg(
        CASE WHEN (c.seq::bigint + 1) * ${CHUNK_BYTES} <= m.want THEN c.data
             ELSE substring(c.data FROM 1 FOR (m.want - c.seq::bigint * ${CHUNK_BYTES})::integer) END,
        ''::bytea ORDER BY c.seq)
      FROM (SELECT least($4::bigint, e.size_bytes) AS want) m
      JOIN ${s}.chunks c ON c.content_id = e.content_id AND c.seq::bigint * ${CHUNK_BYTES} < m.want
    ) END AS data
  FROM ${s}.walk($1, $2::bytea[], $3) w LEFT JOIN ${s}.entries e ON e.id = w.entry_id`;

const listSql = (s: string) => `
  SELECT w.reached, w.entry_kind AS kind, c.name, c.kind AS child_kind, c.size_bytes,
    to_char(c.modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS modified_at
  FROM ${s}.walk($1, $2::bytea[], $3) w
  LEFT JOIN LATERAL (
    SELECT x.name, x.kind, x.size_bytes, x.modified_at FROM ${s}.entries x
    WHERE x.parent_id = w.entry_id ORDER BY x.name LIMIT $4
  ) c ON w.reached = $3 AND w.entry_kind = 'd'
  ORDER BY c.name`;

// A listing formats its times in SQL (microseconds, UTC): parsing 10,000 Dates costs more than the query.
function describe(kind: string, size: string | null, modifiedAt: Date | string): PathStatus & { kind: 'file' | 'directory'; modifiedAt: string } {
  const at = typeof modifiedAt === 'string' ? modifiedAt : modifiedAt.toISOString();
  return kind === 'f' ? { kind: 'file', sizeBytes: Number(size), modifiedAt: at } : { kind: 'directory', sizeBytes: null, modifiedAt: at };
}

export async function statPath(pool: Pool, ref: WorkspaceRef, path: WorkspacePath): Promise<PathStatus> {
  const at = pathNames(path);
  const { rows } = await pool.query<WalkRow & { mode: number | null }>(statSql(ref.schema), [ref.rootId, at.names, at.names.length]);
  const row = rows[0] ?? { reached: -1, kind: null, size_bytes: null, modified_at: null, mode: null };
  const refused = ancestorRefusal(at, row.reached, row.kind);
  if (refused !== undefined) throw refused;
  if (row.reached < at.names.length || row.kind === null || row.modified_at === null) return { kind: 'missing', sizeBytes: null, modifiedAt: null };
  const status = describe(row.kind, row.size_bytes, row.modified_at);
  return status.kind === 'file' && row.mode !== null ? { ...status, mode: row.mode & FILE_MODE_BITS } : status;
}

export async function readFile(pool: Pool, ref: WorkspaceRef, path: WorkspacePath, maxBytes: number): Promise<FileRead> {
  const at = pathNames(path);
  const { rows } = await pool.query<WalkRow & { data: Buffer | null }>(readSql(ref.schema), [ref.rootId, at.names, at.names.length, maxBytes]);
  const row = rows[0] ?? { reached: -1, kind: null, size_bytes: null, modified_at: null, data: null };
  const refused = ancestorRefusal(at, row.reached, row.kind);
  if (refused !== undefined) throw refused;
  if (row.reached < at.names.length) throw providerErrors.notFound(path);
  if (row.kind !== 'f') throw providerErrors.notAFile(path, 'directory');
  const size = Number(row.size_bytes);
  const bytes = row.data === null ? new Uint8Array(0) : new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  if (bytes.length !== Math.min(size, maxBytes)) {
    // The chunks disagree with the size the entry records: the store was changed by hand.
    throw providerErrors.failure(path, null, { effect: 'none' });
  }
  return { bytes, truncated: size > maxBytes };
}

export async function listDirectory(pool: Pool, ref: WorkspaceRef, path: WorkspacePath, limit: number): Promise<DirectoryListing> {
  const at = pathNames(path);
  const { rows } = await pool.query<{
    reached: number;
    kind: string | null;
    name: Buffer | null;
    child_kind: string | null;
    size_bytes: string | null;
    modified_at: string | null;
  }>(listSql(ref.schema), [ref.rootId, at.names, at.names.length, limit + 1]);
  const first = rows[0] ?? { reached: -1, kind: null };
  const refused = ancestorRefusal(at, first.reached, first.kind);
  if (refused !== undefined) throw refused;
  if (first.reached < at.names.length) throw providerErrors.notFound(path);
  if (first.kind !== 'd') throw providerErrors.notADirectory(path);
  const entries: DirectoryEntry[] = [];
  for (const row of rows) {
    if (row.name === null || row.child_kind === null || row.modified_at === null || entries.length === limit) continue;
    const name = row.name.toString('utf8');
    entries.push({ name, path: childPath(path, name), ...describe(row.child_kind, row.size_bytes, row.modified_at) });
  }
  return { entries, truncated: rows.length > limit };
}
