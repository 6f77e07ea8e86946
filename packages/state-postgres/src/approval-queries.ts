import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * The fleet's approval seal key: the first host's random 32 bytes, kept; every other host reads
 * the same row. Two hosts starting at once both insert, one row wins, both read it.
 */
export async function sharedApprovalKey(pool: Pool, schema: string): Promise<Uint8Array> {
  await pool.query(`INSERT INTO ${schema}.approval_key (singleton, key) VALUES (true, $1) ON CONFLICT (singleton) DO NOTHING`, [randomBytes(32)]);
  const { rows } = await pool.query<{ key: Buffer }>(`SELECT key FROM ${schema}.approval_key WHERE singleton`);
  return new Uint8Array(rows[0]!.key);
}

/**
 * Marks the state `id` used, in one statement: the primary key decides which of two hosts racing
 * with the same state consumes it. Resolves false when it was used already.
 */
export async function consumeRequestState(pool: Pool, schema: string, id: string, expiresAt: number): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.consume_request_state`,
    text: `INSERT INTO ${schema}.used_request_states (id, expires_at) VALUES ($1, to_timestamp($2::double precision / 1000)) ON CONFLICT (id) DO NOTHING`,
    values: [id, expiresAt],
  });
  return rowCount === 1;
}

/** Forgets states past their expiry: they verify no more, so their ids need no keeping. */
export async function forgetExpiredStates(pool: Pool, schema: string): Promise<void> {
  await pool.query(`DELETE FROM ${schema}.used_request_states WHERE expires_at < now()`);
}
