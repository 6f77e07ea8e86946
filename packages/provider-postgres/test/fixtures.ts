import type { ProviderFixtures } from '@libos/provider-conformance';
import type pg from 'pg';
import { CHUNK_BYTES } from '../src/index.js';

type Kind = 'file' | 'directory' | 'missing';

/**
 * Raw SQL on the provider's tables, for states the provider cannot make (`.git` entries) and for
 * observing effects without trusting it. Paths are root-relative and unchecked.
 */
export function postgresFixtures(pool: pg.Pool, schema: string, workspace: string): ProviderFixtures {
  const s = `"${schema}"`;
  const names = (path: string): Buffer[] => (path === '' || path === '.' ? [] : path.split('/').map((segment) => Buffer.from(segment, 'utf8')));
  const root = async (): Promise<{ workspaceId: string; rootId: string } | undefined> => {
    const { rows } = await pool.query<{ workspace_id: string; root_id: string }>(
      `SELECT w.id AS workspace_id, e.id AS root_id FROM ${s}.workspaces w JOIN ${s}.entries e ON e.workspace_id = w.id AND e.parent_id IS NULL WHERE w.name = $1`,
      [workspace],
    );
    const row = rows[0];
    return row === undefined ? undefined : { workspaceId: row.workspace_id, rootId: row.root_id };
  };
  /** Walks by plain lookups; returns the entry or undefined. */
  const find = async (path: string): Promise<{ id: string; kind: string; content_id: string | null; size_bytes: string } | undefined> => {
    const start = await root();
    if (start === undefined) return undefined;
    let current = { id: start.rootId, kind: 'd', content_id: null as string | null, size_bytes: '0' };
    for (const name of names(path)) {
      const { rows } = await pool.query(`SELECT id, kind, content_id, size_bytes FROM ${s}.entries WHERE parent_id = $1 AND name = $2`, [
        current.id,
        name,
      ]);
      if (rows[0] === undefined) return undefined;
      current = rows[0];
    }
    return current;
  };
  const makeDirectories = async (parts: Buffer[]): Promise<{ workspaceId: string; parent: string }> => {
    const start = await root();
    if (start === undefined) throw new Error(`The workspace ${workspace} does not exist.`);
    let parent = start.rootId;
    for (const name of parts) {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode) VALUES ($1, $2, $3, 'd', 493)
         ON CONFLICT (parent_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
        [start.workspaceId, parent, name],
      );
      parent = rows[0]?.id ?? '';
    }
    return { workspaceId: start.workspaceId, parent };
  };
  return {
    writeFile: async (path, content) => {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
      const parts = names(path);
      const { workspaceId, parent } = await makeDirectories(parts.slice(0, -1));
      await pool.query(`DELETE FROM ${s}.entries WHERE parent_id = $1 AND name = $2`, [parent, parts.at(-1)]);
      const { rows } = await pool.query<{ id: string }>(`SELECT nextval('${s}.content_ids') AS id`);
      const content_id = rows[0]?.id;
      for (let offset = 0, seq = 0; offset < bytes.length; offset += CHUNK_BYTES, seq++) {
        await pool.query(`INSERT INTO ${s}.chunks (content_id, seq, data) VALUES ($1, $2, $3)`, [
          content_id,
          seq,
          bytes.subarray(offset, offset + CHUNK_BYTES),
        ]);
      }
      await pool.query(
        `INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode, size_bytes, sha256, content_id)
         VALUES ($1, $2, $3, 'f', 420, $4, sha256($5::bytea), $6)`,
        [workspaceId, parent, parts.at(-1), bytes.length, bytes, content_id],
      );
      await pool.query(`UPDATE ${s}.workspaces SET used_bytes = used_bytes + $2 WHERE id = $1`, [workspaceId, bytes.length]);
    },
    makeDirectory: async (path) => {
      await makeDirectories(names(path));
    },
    readFile: async (path) => {
      const entry = await find(path);
      if (entry === undefined || entry.kind !== 'f') return null;
      // One statement, so the entry and its chunks come from one snapshot even while a write replaces them.
      const { rows } = await pool.query<{ size_bytes: string; data: Buffer | null }>(
        `SELECT e.size_bytes, (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM ${s}.chunks c WHERE c.content_id = e.content_id) AS data
         FROM ${s}.entries e WHERE e.id = $1 AND e.kind = 'f'`,
        [entry.id],
      );
      const row = rows[0];
      if (row === undefined) return null;
      const bytes = row.data ?? Buffer.alloc(0);
      if (bytes.length !== Number(row.size_bytes)) throw new Error(`${path} holds ${bytes.length} bytes in chunks, not its size.`);
      return new Uint8Array(bytes);
    },
    kindOf: async (path): Promise<Kind> => {
      const entry = await find(path);
      if (entry === undefined) return 'missing';
      return entry.kind === 'f' ? 'file' : 'directory';
    },
    modes: {
      get: async (path) => {
        const entry = await find(path);
        const { rows } = await pool.query<{ mode: number }>(`SELECT mode FROM ${s}.entries WHERE id = $1`, [entry?.id]);
        return rows[0]?.mode ?? 0;
      },
      set: async (path, mode) => {
        const entry = await find(path);
        await pool.query(`UPDATE ${s}.entries SET mode = $2 WHERE id = $1`, [entry?.id, mode]);
      },
    },
    removeWorkspace: async () => {
      await pool.query(`DELETE FROM ${s}.workspaces WHERE name = $1`, [workspace]);
    },
  };
}
