import type { Pool } from 'pg';
import { utf8Bytes } from './utf8.js';

/**
 * Spends `count` uses of one grant under a policy if at most `limit` are then spent, in one
 * statement: the upsert locks the ledger row, so of two hosts racing for the last use one spends it
 * and the other sees it spent. Returns whether the uses were spent.
 */
export async function spendUses(
  pool: Pool,
  schema: string,
  policyId: string,
  grantKey: string,
  count: number,
  limit: number,
): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.spend_uses`,
    text: `INSERT INTO ${schema}.grant_uses AS g (policy_id, grant_key, spent)
             SELECT $1, $2, $3::bigint WHERE $3::bigint <= $4::bigint
           ON CONFLICT (policy_id, grant_key) DO UPDATE SET spent = g.spent + EXCLUDED.spent
             WHERE g.spent + EXCLUDED.spent <= $4::bigint
           RETURNING spent`,
    values: [utf8Bytes(policyId), utf8Bytes(grantKey), count, limit],
  });
  return rowCount === 1;
}

/** How many uses of one grant are spent under a policy (0 when none). */
export async function spentUses(pool: Pool, schema: string, policyId: string, grantKey: string): Promise<number> {
  const { rows } = await pool.query<{ spent: string }>({
    name: `${schema}.spent_uses`,
    text: `SELECT spent FROM ${schema}.grant_uses WHERE policy_id = $1 AND grant_key = $2`,
    values: [utf8Bytes(policyId), utf8Bytes(grantKey)],
  });
  return rows[0] === undefined ? 0 : Number(rows[0].spent);
}
