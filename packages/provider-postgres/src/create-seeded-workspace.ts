import { LibosError, ROOT_PATH, type WorkspacePath } from '@libos/core';
import type { Pool } from 'pg';
import { inTransaction, writeFileInTransaction } from './change-queries.js';
import { errorCode } from './database-failure.js';
import { openWorkspace, type OpenedWorkspace } from './open-workspace.js';
import { pathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { refusal, type Outcome } from './refusal.js';
import { readSeedFile, scanSeed, type SeedEntry } from './seed-workspace.js';

const ROOT = ROOT_PATH;

/**
 * Finds the workspace `name`, or creates it with the host directory `seed` copied in, all in one
 * transaction: a seed that fails midway (an unreadable or too large file, a lost connection, a
 * killed host) rolls the workspace's creation back with it, so no one ever sees a half seed and the
 * next start creates and seeds it again. Another host opening the same name meanwhile waits for the
 * commit (the unique name decides), then finds the whole seed. Files keep their host permission
 * bits; directories get 0755. A refused seed is `provider_failure` (effect `none`) naming the entry.
 */
export function createSeededWorkspace(pool: Pool, schema: string, name: string, seed: string, maxBytes: number): Promise<OpenedWorkspace> {
  return inTransaction(pool, ROOT, async (client) => {
    const opened = await openWorkspace(client, schema, name);
    if (!opened.created) return opened;
    const ref: WorkspaceRef = { schema, workspaceId: opened.workspaceId, rootId: opened.rootId };
    let entries: SeedEntry[];
    try {
      entries = await scanSeed(seed);
    } catch (error) {
      throw seedRefused(null, error);
    }
    for (const entry of entries) {
      try {
        if (entry.directory) {
          const at = pathNames(entry.path);
          const { rows } = await client.query<Outcome>(`SELECT status, depth FROM ${schema}.make_directory($1, $2, $3::bytea[], true, true)`, [
            ref.workspaceId,
            ref.rootId,
            at.names,
          ]);
          const outcome = rows[0] ?? { status: 'failed', depth: 0 };
          if (outcome.status !== 'ok') throw refusal(at, outcome);
        } else {
          await writeFileInTransaction(client, ref, entry.path, await readSeedFile(entry), { overwrite: false, mode: entry.mode }, maxBytes);
        }
      } catch (error) {
        throw seedRefused(entry.path, error);
      }
    }
    return opened;
  });
}

function seedRefused(path: WorkspacePath | null, error: unknown): LibosError {
  const why = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  // What refused it: a contract code (quota_exceeded), or the host's or the database's own code.
  const code = LibosError.is(error) ? error.code : null;
  const hostCode = LibosError.is(error) ? null : (errorCode(error) ?? null);
  return new LibosError(
    'provider_failure',
    `The seed was not copied in (nothing of it was kept; the next start tries again): ${path === null ? '' : `${path}: `}${why}`,
    { effect: 'none', cause: error, details: { path: '.', reason: 'seed_failed', seed_path: path, seed_code: code, host_code: hostCode } },
  );
}
