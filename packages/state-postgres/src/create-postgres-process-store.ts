import { LibosError, checkStoreSignal, type Effect, type ProcessStoreV1, type StoreCallOptions } from '@libos/core';
import { quoteSchema } from '@libos/provider-kit';
import pg from 'pg';
import { databaseFailure } from './database-failure.js';
import { migrate } from './migrate.js';
import { insertProcess, moveProcess, sweepProcesses, touchProcess } from './process-queries.js';

/** Options of the PostgreSQL state stores: a connection string or a pool of your own, not both. */
export interface PostgresStateOptions {
  /** A libpq-style URL (`postgres://user:password@host:port/db`); the store makes and ends its own pool. */
  readonly connectionString?: string;
  /** A pool you own: the store never ends it; give it an `error` listener, as node-postgres asks. */
  readonly pool?: pg.Pool;
  /** The schema of the state tables, created on first use; default `libos_state`. */
  readonly schema?: string;
  /** Connections of the store's own pool; default 10. */
  readonly maxConnections?: number;
}

/** The schema the state tables live in when none is given. */
export const DEFAULT_STATE_SCHEMA = 'libos_state';

const STORE_NAME = 'postgres';

/**
 * Opens the process store in PostgreSQL (docs/fleet.md), creating or upgrading its schema on first
 * use: every `libos serve` on every host that opens the same database and schema serves the same
 * processes. Each call is one statement. Throws `invalid_arguments` or `provider_failure`.
 */
export async function createPostgresProcessStore(options: PostgresStateOptions): Promise<ProcessStoreV1> {
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new LibosError('invalid_arguments', 'Give createPostgresProcessStore either a connectionString or a pool, not both or neither.');
  }
  const schemaName = options.schema ?? DEFAULT_STATE_SCHEMA;
  const schema = quoteSchema(schemaName);
  const ownPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // An idle connection that breaks emits 'error' on the pool; unheard, Node would end the process.
  if (ownPool) pool.on('error', () => undefined);
  try {
    await migrate(pool, schemaName, schema);
  } catch (error) {
    if (ownPool) await pool.end().catch(() => undefined);
    throw databaseFailure(error, 'unknown');
  }
  let closed = false;
  async function guard<T>(effect: Effect, callOptions: StoreCallOptions | undefined, work: () => Promise<T>): Promise<T> {
    if (closed) throw new LibosError('provider_failure', 'The PostgreSQL state store has been closed.', { effect: 'none' });
    checkStoreSignal(callOptions?.signal, STORE_NAME);
    try {
      return await work();
    } catch (error) {
      throw databaseFailure(error, effect);
    }
  }
  return {
    specificationVersion: 'v1',
    name: STORE_NAME,
    create: (key, record, callOptions) => guard('unknown', callOptions, () => insertProcess(pool, schema, key, record)),
    // A touch moves only the last use: failing midway changes nothing a caller relies on.
    touch: (key, idleMs, callOptions) => guard('none', callOptions, () => touchProcess(pool, schema, key, idleMs)),
    setCwd: (key, cwd, idleMs, callOptions) => guard('unknown', callOptions, () => moveProcess(pool, schema, key, cwd, idleMs)),
    sweep: (idleMs, callOptions) => guard('unknown', callOptions, () => sweepProcesses(pool, schema, idleMs)),
    async close() {
      if (closed) return;
      closed = true;
      if (ownPool) await pool.end().catch(() => undefined);
    },
  };
}
