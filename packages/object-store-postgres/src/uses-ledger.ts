import type { Pool } from 'pg';
import { utf8Bytes } from './utf8.js';

/**
 * Spends `amount` uses of `key` if at most `limit` are then spent, in one statement: the upsert
 * locks the ledger row, so of hosts racing for the last use one spends it and the others find it
 * spent. Resolves whether the uses were spent.
 */
export async function spendUses(pool: Pool, schema: string, key: string, amount: number, limit: number): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.spend_uses`,
    text: `INSERT INTO ${schema}.uses AS u (key, spent) SELECT $1, $2::bigint WHERE $2::bigint <= $3::bigint
           ON CONFLICT ((sha256(key))) DO UPDATE SET spent = u.spent + EXCLUDED.spent WHERE u.spent + EXCLUDED.spent <= $3::bigint
           RETURNING spent`,
    values: [utf8Bytes(key), amount, limit],
  });
  return rowCount === 1;
}

/** Gives back `amount` uses of `key`, never below 0, in one statement. */
export async function refundUses(pool: Pool, schema: string, key: string, amount: number): Promise<void> {
  await pool.query({
    name: `${schema}.refund_uses`,
    text: `UPDATE ${schema}.uses SET spent = greatest(0, spent - $2::bigint) WHERE sha256(key) = sha256($1) AND key = $1`,
    values: [utf8Bytes(key), amount],
  });
}

/** How many uses of `key` are spent (0 when never). */
export async function spentUses(pool: Pool, schema: string, key: string): Promise<number> {
  const { rows } = await pool.query<{ spent: string }>({
    name: `${schema}.spent_uses`,
    text: `SELECT spent FROM ${schema}.uses WHERE sha256(key) = sha256($1) AND key = $1`,
    values: [utf8Bytes(key)],
  });
  return rows[0] === undefined ? 0 : Number(rows[0].spent);
}
