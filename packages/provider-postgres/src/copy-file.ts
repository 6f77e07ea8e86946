import { providerErrors, type CopyFileOptions, type WorkspacePath } from '@libos/core';
import type { Pool } from 'pg';
import { changeStatement } from './change-queries.js';
import { pathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { refusal, type Outcome } from './refusal.js';

interface CopyRow extends Outcome {
  side: string;
  copied: string;
  replaced: boolean;
}

/**
 * Copies one file in one statement, its chunks duplicated inside the database so no byte passes
 * through Node (docs/provider-postgres.md#appends-and-copies). Under the workspace lock, a copy
 * racing a write of its source copies the old bytes or the new, never a mix.
 */
export async function copyFile(
  pool: Pool,
  ref: WorkspaceRef,
  from: WorkspacePath,
  to: WorkspacePath,
  options: CopyFileOptions,
  maxBytes: number,
): Promise<{ bytesCopied: number; replaced: boolean }> {
  const source = pathNames(from);
  const target = pathNames(to);
  if (source.names.length === 0) throw providerErrors.notAFile(from, 'directory');
  const rows = await changeStatement<CopyRow>(
    pool,
    to,
    `SELECT status, side, depth, copied, replaced, detail FROM ${ref.schema}.copy_file($1, $2, $3::bytea[], $4::bytea[], $5, $6)`,
    [ref.workspaceId, ref.rootId, source.names, target.names, options.overwrite, maxBytes],
  );
  const outcome = rows[0];
  if (outcome === undefined) throw providerErrors.failure(to, null);
  if (outcome.status !== 'ok') {
    throw refusal(outcome.side === 'from' ? source : target, outcome, { writeBytes: Number(outcome.copied), maxBytes });
  }
  return { bytesCopied: Number(outcome.copied), replaced: outcome.replaced };
}
