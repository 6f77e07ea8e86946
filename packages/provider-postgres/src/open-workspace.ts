import { LibosError } from '@libos/core';
import type { Pool, PoolClient } from 'pg';

/** A workspace's row and root entry, and whether this call created it. */
export interface OpenedWorkspace {
  readonly workspaceId: string;
  readonly rootId: string;
  readonly created: boolean;
}

// Names are text (a text column cannot hold NUL) and kept short enough to read in a message.
const WORKSPACE_NAME_MAX_BYTES = 255;

/** Checks a workspace name: 1 to 255 UTF-8 bytes, no NUL or other control character. Throws `invalid_arguments`. */
export function checkWorkspaceName(name: unknown): string {
  if (typeof name !== 'string' || name === '' || Buffer.byteLength(name) > WORKSPACE_NAME_MAX_BYTES || /[\u0000-\u001f\u007f]/u.test(name)) {
    throw new LibosError('invalid_arguments', 'The workspace name must be 1 to 255 bytes of UTF-8 without control characters.', {
      details: { option: 'workspace' },
    });
  }
  return name;
}

/**
 * Finds the workspace named `name`, creating it (with its root directory) when it does not exist.
 * The unique name decides between hosts that create it at once: the loser waits for the winner's
 * commit, then finds its workspace. On a client inside a transaction, the creation commits with it.
 * With `create: false` a missing workspace is `not_found` and nothing is written.
 */
export async function openWorkspace(
  pool: Pool | PoolClient,
  schema: string,
  name: string,
  { create = true, attempt = 1 }: { readonly create?: boolean; readonly attempt?: number } = {},
): Promise<OpenedWorkspace> {
  if (!create) return findWorkspace(pool, schema, name);
  const { rows } = await pool.query<{ workspace_id: string; root_id: string; created: boolean }>(
    `WITH made AS (
       INSERT INTO ${schema}.workspaces (name) VALUES ($1) ON CONFLICT (name) DO NOTHING RETURNING id),
     root AS (
       INSERT INTO ${schema}.entries (workspace_id, parent_id, name, kind, mode)
       SELECT id, NULL, ''::bytea, 'd', 493 FROM made RETURNING id, workspace_id)
     SELECT workspace_id, id AS root_id, true AS created FROM root
     UNION ALL
     SELECT w.id, e.id, false FROM ${schema}.workspaces w JOIN ${schema}.entries e ON e.workspace_id = w.id AND e.parent_id IS NULL
     WHERE w.name = $1 AND NOT EXISTS (SELECT 1 FROM made)`,
    [name],
  );
  const row = rows[0];
  if (row === undefined) {
    // Another host created it after this statement's snapshot: the next statement sees its commit.
    if (attempt < 5) return openWorkspace(pool, schema, name, { attempt: attempt + 1 });
    throw new LibosError('provider_failure', `The workspace ${JSON.stringify(name)} could not be opened.`, {
      effect: 'none',
      details: { path: '.' },
    });
  }
  return { workspaceId: row.workspace_id, rootId: row.root_id, created: row.created };
}

async function findWorkspace(pool: Pool | PoolClient, schema: string, name: string): Promise<OpenedWorkspace> {
  const { rows } = await pool.query<{ workspace_id: string; root_id: string }>(
    `SELECT w.id AS workspace_id, e.id AS root_id FROM ${schema}.workspaces w
     JOIN ${schema}.entries e ON e.workspace_id = w.id AND e.parent_id IS NULL WHERE w.name = $1`,
    [name],
  );
  const row = rows[0];
  if (row === undefined) {
    throw new LibosError('not_found', `There is no workspace ${JSON.stringify(name)} in this database.`, {
      effect: 'none',
      details: { path: '.', reason: 'workspace_missing' },
    });
  }
  return { workspaceId: row.workspace_id, rootId: row.root_id, created: false };
}
