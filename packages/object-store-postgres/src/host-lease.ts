import type { Pool } from 'pg';

/**
 * Renews this host's lease (registering the host if it has none) and drops every other host whose
 * lease has expired, with their `process:*` namespaces and those namespaces' Objects (the cascade
 * runs the usage triggers, so the quotas free up too). Leases are judged by the database's clock,
 * so hosts whose clocks disagree still agree on who expired. Returns how many hosts were dropped.
 */
export async function heartbeat(pool: Pool, schema: string, hostId: string, leaseSeconds: number): Promise<number> {
  const { rows } = await pool.query<{ swept: string }>({
    name: `${schema}.heartbeat`,
    text: `WITH renewed AS (
             INSERT INTO ${schema}.hosts (host_id, lease_expires_at)
               VALUES ($1, clock_timestamp() + make_interval(secs => $2::double precision))
             ON CONFLICT (host_id) DO UPDATE SET lease_expires_at = EXCLUDED.lease_expires_at
             RETURNING host_id
           ), swept AS (
             DELETE FROM ${schema}.hosts WHERE lease_expires_at < clock_timestamp() AND host_id <> $1 RETURNING host_id
           )
           SELECT (SELECT count(*) FROM swept) AS swept, (SELECT count(*) FROM renewed) AS renewed`,
    values: [hostId, leaseSeconds],
  });
  return Number(rows[0]?.swept ?? 0);
}

/** Ends this host's lease at once, dropping its `process:*` namespaces (a clean shutdown). */
export async function releaseHost(pool: Pool, schema: string, hostId: string): Promise<void> {
  await pool.query({ name: `${schema}.release_host`, text: `DELETE FROM ${schema}.hosts WHERE host_id = $1`, values: [hostId] });
}
