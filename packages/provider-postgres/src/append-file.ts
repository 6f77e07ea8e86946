import { providerErrors, type AppendFileOptions, type FileAppend, type WorkspacePath } from '@libos/core';
import type { Pool } from 'pg';
import { changeStatement } from './change-queries.js';
import { pathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { refusal, type Outcome } from './refusal.js';

interface AppendRow extends Outcome {
  created: boolean;
  appended: string;
  new_size: string;
}

/**
 * Adds bytes at the end of a file in one statement (docs/provider-postgres.md#appends-and-copies):
 * the size check, the choice of the empty-file prefix, the quota and the append are decided under
 * the workspace lock, so concurrent appends on any host all land, whole, one after another.
 */
export async function appendFile(
  pool: Pool,
  ref: WorkspaceRef,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: AppendFileOptions,
  maxBytes: number,
): Promise<FileAppend> {
  const at = pathNames(path);
  if (at.names.length === 0) throw providerErrors.notAFile(path, 'directory');
  const prefix = options.emptyFilePrefix === undefined || options.emptyFilePrefix.length === 0 ? null : toBuffer(options.emptyFilePrefix);
  const rows = await changeStatement<AppendRow>(
    pool,
    path,
    `SELECT status, depth, created, appended, new_size, detail FROM ${ref.schema}.append_file($1, $2, $3::bytea[], $4, $5, $6, $7, $8)`,
    [ref.workspaceId, ref.rootId, at.names, toBuffer(bytes), prefix, options.create, options.expectedSizeBytes ?? null, maxBytes],
  );
  const outcome = rows[0];
  if (outcome === undefined) throw providerErrors.failure(path, null);
  if (outcome.status !== 'ok') {
    throw refusal(at, outcome, { expectedSizeBytes: options.expectedSizeBytes, writeBytes: Number(outcome.appended), maxBytes });
  }
  return { bytesAppended: Number(outcome.appended), sizeBytes: Number(outcome.new_size), created: outcome.created };
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
