import { providerErrors, type FileRangeRead, type ReadFileRangeOptions, type WorkspacePath } from '@libos/core';
import type { Pool } from 'pg';
import { CHUNK_BYTES } from './chunk-bytes.js';
import { pathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { ancestorRefusal } from './refusal.js';

const C = CHUNK_BYTES;

// One statement: the walk, the size, the range it gives and the slices of only the chunks the
// range covers share one snapshot, so a tail of a huge file costs the tail and one round trip.
// r.first and r.last bound the range [first, last) in the file, computed from its size.
const rangeSql = (s: string) => `
  SELECT w.reached, e.kind, e.size_bytes, r.first,
    CASE WHEN w.reached = $3 AND e.kind = 'f' AND r.last > r.first THEN (
      SELECT string_agg(substring(c.data
          FROM (greatest(r.first - c.seq::bigint * ${C}, 0) + 1)::integer
          FOR (least(r.last - c.seq::bigint * ${C}, ${C}) - greatest(r.first - c.seq::bigint * ${C}, 0))::integer),
        ''::bytea ORDER BY c.seq)
      FROM ${s}.chunks c
      WHERE c.content_id = e.content_id AND c.seq >= r.first / ${C} AND c.seq <= (r.last - 1) / ${C}
    ) END AS data
  FROM ${s}.walk($1, $2::bytea[], $3) w LEFT JOIN ${s}.entries e ON e.id = w.entry_id
  LEFT JOIN LATERAL (
    SELECT CASE WHEN $6 THEN greatest(0, greatest(0, e.size_bytes - $4::bigint) - $5::bigint) ELSE least(e.size_bytes, $4::bigint) END AS first,
           CASE WHEN $6 THEN greatest(0, e.size_bytes - $4::bigint) ELSE least(e.size_bytes, $4::bigint + $5::bigint) END AS last
  ) r ON true`;

/** Reads at most `maxBytes` bytes at an offset, or ending `offset` bytes before the end, fetching only those. */
export async function readFileRange(pool: Pool, ref: WorkspaceRef, path: WorkspacePath, options: ReadFileRangeOptions): Promise<FileRangeRead> {
  const at = pathNames(path);
  const { rows } = await pool.query<{ reached: number; kind: string | null; size_bytes: string | null; first: string | null; data: Buffer | null }>(
    rangeSql(ref.schema),
    [ref.rootId, at.names, at.names.length, options.offset, options.maxBytes, options.fromEnd === true],
  );
  const row = rows[0] ?? { reached: -1, kind: null, size_bytes: null, first: null, data: null };
  const refused = ancestorRefusal(at, row.reached, row.kind);
  if (refused !== undefined) throw refused;
  if (row.reached < at.names.length) throw providerErrors.notFound(path);
  if (row.kind !== 'f') throw providerErrors.notAFile(path, 'directory');
  const size = Number(row.size_bytes);
  const first = Number(row.first);
  const bytes = row.data === null ? new Uint8Array(0) : new Uint8Array(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  const end = options.fromEnd === true ? Math.max(0, size - options.offset) : Math.min(size, options.offset + options.maxBytes);
  if (bytes.length !== end - first) {
    // The chunks disagree with the size the entry records: the store was changed by hand.
    throw providerErrors.failure(path, null, { effect: 'none' });
  }
  return { bytes, offset: first, sizeBytes: size };
}
