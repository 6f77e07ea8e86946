import { createHash } from 'node:crypto';
import { checkFileMode, providerErrors, type WorkspacePath, type WriteFileOptions } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { databaseFailure } from './database-failure.js';
import { CHUNK_BYTES } from './migrations.js';
import { pathNames, type PathNames } from './path-names.js';
import type { WorkspaceRef } from './read-queries.js';
import { refusal, type Outcome } from './refusal.js';

/**
 * Runs `work` in one transaction on one connection. `effect` of a lost connection is `none` until
 * COMMIT is sent (the server rolls an unfinished transaction back), `unknown` while it is in flight.
 */
export async function inTransaction<T>(pool: Pool, path: WorkspacePath, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await connect(pool, path);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    try {
      await client.query('COMMIT');
    } catch (error) {
      broken = true;
      throw databaseFailure(error, path, 'unknown');
    }
    return result;
  } catch (error) {
    if (!broken) {
      broken = await client.query('ROLLBACK').then(
        () => false,
        () => true,
      );
    }
    throw databaseFailure(error, path, 'none');
  } finally {
    release(client, broken);
  }
}

const ignore = (): void => undefined;

/**
 * A connection of the pool for one call. A connection cut off while checked out also emits
 * 'error' on the client, which would end the process unheard; the call's own query rejects too,
 * and that is what the caller reports.
 */
async function connect(pool: Pool, path: WorkspacePath): Promise<PoolClient> {
  try {
    const client = await pool.connect();
    client.on('error', ignore);
    return client;
  } catch (error) {
    throw databaseFailure(error, path, 'none');
  }
}

/** Gives a connection back; a broken one (or one whose state is unknown) is destroyed instead. */
function release(client: PoolClient, broken: boolean): void {
  client.off('error', ignore);
  client.release(broken ? true : undefined);
}

/**
 * Runs one statement that changes the workspace (in its own implicit transaction). A connection
 * that cannot be had changed nothing; one lost while the statement ran may have committed it.
 */
export async function changeStatement<T extends QueryResultRow>(pool: Pool, path: WorkspacePath, sql: string, parameters: unknown[]): Promise<T[]> {
  const client = await connect(pool, path);
  let broken = false;
  try {
    return (await client.query<T>(sql, parameters)).rows;
  } catch (error) {
    broken = true;
    throw databaseFailure(error, path, 'unknown');
  } finally {
    release(client, broken);
  }
}

/** Creates or replaces a whole file: one statement for one chunk without a mode, else one transaction. */
export async function writeFile(
  pool: Pool,
  ref: WorkspaceRef,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
  maxBytes: number,
): Promise<{ created: boolean }> {
  const plan = writePlan(ref, path, bytes, options, maxBytes);
  if (plan.chunks.length <= 1 && plan.mode === undefined) {
    const rows = await changeStatement<Outcome & { created: boolean }>(pool, path, plan.sql, plan.parameters(null, plan.chunks[0] ?? null, 0));
    return plan.settle(rows[0]);
  }
  return inTransaction(pool, path, (client) => writePlanned(client, plan, options.signal));
}

/**
 * `writeFile` on a client already inside a transaction (a seed copies a whole tree in the one that
 * creates its workspace): nothing of it is seen before that transaction commits.
 */
export function writeFileInTransaction(
  client: PoolClient,
  ref: WorkspaceRef,
  path: WorkspacePath,
  bytes: Uint8Array,
  options: WriteFileOptions,
  maxBytes: number,
): Promise<{ created: boolean }> {
  return writePlanned(client, writePlan(ref, path, bytes, options, maxBytes), options.signal);
}

type WritePlan = ReturnType<typeof writePlan>;

function writePlan(ref: WorkspaceRef, path: WorkspacePath, bytes: Uint8Array, options: WriteFileOptions, maxBytes: number) {
  const mode = checkFileMode(options.mode, path);
  const at = pathNames(path);
  if (at.names.length === 0) throw providerErrors.notAFile(path, 'directory');
  const sha256 = createHash('sha256').update(bytes).digest();
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) {
    chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset + offset, Math.min(CHUNK_BYTES, bytes.length - offset)));
  }
  const sql = `SELECT status, depth, created, detail FROM ${ref.schema}.write_file($1, $2, $3::bytea[], $4, $5, $6, $7, $8, $9, $10, $11)`;
  const parameters = (content: string | null, last: Buffer | null, lastSeq: number) => [
    ref.workspaceId,
    ref.rootId,
    at.names,
    content,
    last,
    lastSeq,
    bytes.length,
    sha256,
    options.overwrite,
    options.expectedSha256 ?? null,
    maxBytes,
  ];
  const settle = (outcome: (Outcome & { created: boolean }) | undefined): { created: boolean } => {
    const found = outcome ?? { status: 'failed', depth: 0, created: false };
    if (found.status === 'ok') return { created: found.created };
    throw refusal(at, found, { expectedSha256: options.expectedSha256, writeBytes: bytes.length, maxBytes });
  };
  return { ref, path, at, mode, chunks, sql, parameters, settle };
}

async function writePlanned(client: PoolClient, plan: WritePlan, signal: AbortSignal | undefined): Promise<{ created: boolean }> {
  const { ref, path, at, chunks } = plan;
  let content: string | null = null;
  if (chunks.length > 1) {
    // Every chunk but the last goes in first, under a fresh content id no entry names yet.
    const { rows: first } = await client.query<{ content_id: string }>(
      `INSERT INTO ${ref.schema}.chunks (content_id, seq, data) VALUES (nextval('${ref.schema}.content_ids'), 0, $1) RETURNING content_id`,
      [chunks[0]],
    );
    content = first[0]?.content_id ?? null;
    for (let seq = 1; seq < chunks.length - 1; seq++) {
      checkSignal(signal, path);
      await client.query(`INSERT INTO ${ref.schema}.chunks (content_id, seq, data) VALUES ($1, $2, $3)`, [content, seq, chunks[seq]]);
    }
    checkSignal(signal, path);
  }
  const lastSeq = Math.max(0, chunks.length - 1);
  const { rows } = await client.query<Outcome & { created: boolean }>(plan.sql, plan.parameters(content, chunks.at(-1) ?? null, lastSeq));
  const written = plan.settle(rows[0]);
  // The mode is set in the transaction that lands the bytes, so no reader ever sees them under another.
  if (plan.mode !== undefined) {
    await client.query(
      `UPDATE ${ref.schema}.entries SET mode = $4 WHERE id = (SELECT w.entry_id FROM ${ref.schema}.walk($1, $2::bytea[], $3) w WHERE w.reached = $3)`,
      [ref.rootId, at.names, at.names.length, plan.mode],
    );
  }
  return written;
}

async function change<T extends Outcome & QueryResultRow>(pool: Pool, at: PathNames, sql: string, parameters: unknown[]): Promise<T> {
  const rows = await changeStatement<T>(pool, at.path, sql, parameters);
  const outcome = rows[0];
  if (outcome === undefined) throw providerErrors.failure(at.path, null);
  if (outcome.status !== 'ok') throw refusal(at, outcome);
  return outcome;
}

export async function makeDirectory(
  pool: Pool,
  ref: WorkspaceRef,
  path: WorkspacePath,
  parents: boolean,
  existOk: boolean,
): Promise<{ created: boolean }> {
  const at = pathNames(path);
  const outcome = await change<Outcome & { created: boolean }>(
    pool,
    at,
    `SELECT status, depth, created FROM ${ref.schema}.make_directory($1, $2, $3::bytea[], $4, $5)`,
    [ref.workspaceId, ref.rootId, at.names, parents, existOk],
  );
  return { created: outcome.created };
}

/** Deletes one file, or one empty directory. */
export async function deleteEntry(
  pool: Pool,
  ref: WorkspaceRef,
  path: WorkspacePath,
  directory: boolean,
  missingOk: boolean,
): Promise<{ deleted: boolean }> {
  const at = pathNames(path);
  const outcome = await change<Outcome & { deleted: boolean }>(
    pool,
    at,
    `SELECT status, depth, deleted FROM ${ref.schema}.delete_entry($1, $2, $3::bytea[], $4, $5)`,
    [ref.workspaceId, ref.rootId, at.names, directory, missingOk],
  );
  return { deleted: outcome.deleted };
}

export async function renameFile(
  pool: Pool,
  ref: WorkspaceRef,
  from: WorkspacePath,
  to: WorkspacePath,
  overwrite: boolean,
): Promise<{ replaced: boolean }> {
  const source = pathNames(from);
  const target = pathNames(to);
  if (source.names.length === 0) throw providerErrors.notAFile(from, 'directory');
  const rows = await changeStatement<Outcome & { side: string; replaced: boolean }>(
    pool,
    to,
    `SELECT status, side, depth, replaced FROM ${ref.schema}.rename_file($1, $2, $3::bytea[], $4::bytea[], $5)`,
    [ref.workspaceId, ref.rootId, source.names, target.names, overwrite],
  );
  const outcome = rows[0];
  if (outcome === undefined) throw providerErrors.failure(to, null);
  if (outcome.status !== 'ok') throw refusal(outcome.side === 'from' ? source : target, outcome);
  return { replaced: outcome.replaced };
}
