import type { ProcessRecord } from '@libos/core';
import type { Pool } from 'pg';

// Each query is one statement, prepared once per connection (`name`), so a call costs one round trip.

/** Inserts a new process record. */
export async function insertProcess(pool: Pool, schema: string, key: string, record: ProcessRecord): Promise<void> {
  await pool.query({
    name: `${schema}.insert_process`,
    text: `INSERT INTO ${schema}.processes (key, pid, cwd) VALUES ($1, $2, $3)`,
    values: [key, record.pid, record.cwd],
  });
}

/** The live record under `key`, its last use moved to now; none when it is missing or idle past `idleMs`. */
export async function touchProcess(pool: Pool, schema: string, key: string, idleMs: number): Promise<ProcessRecord | undefined> {
  const { rows } = await pool.query<{ pid: string; cwd: string }>({
    name: `${schema}.touch_process`,
    text: `UPDATE ${schema}.processes SET last_used_at = now()
            WHERE key = $1 AND last_used_at > now() - make_interval(secs => $2::double precision / 1000)
            RETURNING pid, cwd`,
    values: [key, idleMs],
  });
  const row = rows[0];
  return row === undefined ? undefined : { pid: row.pid, cwd: row.cwd };
}

/** Moves a live record's cwd; false when it is missing or idle past `idleMs`. */
export async function moveProcess(pool: Pool, schema: string, key: string, cwd: string, idleMs: number): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: `${schema}.move_process`,
    text: `UPDATE ${schema}.processes SET cwd = $2, last_used_at = now()
            WHERE key = $1 AND last_used_at > now() - make_interval(secs => $3::double precision / 1000)`,
    values: [key, cwd, idleMs],
  });
  return rowCount === 1;
}

/**
 * Deletes the records idle past `idleMs` and returns their pids. A DELETE takes each row's lock,
 * so of hosts sweeping at once each pid comes back to one of them only.
 */
export async function sweepProcesses(pool: Pool, schema: string, idleMs: number): Promise<string[]> {
  const { rows } = await pool.query<{ pid: string }>({
    name: `${schema}.sweep_processes`,
    text: `DELETE FROM ${schema}.processes WHERE last_used_at <= now() - make_interval(secs => $1::double precision / 1000) RETURNING pid`,
    values: [idleMs],
  });
  return rows.map((row) => row.pid);
}
