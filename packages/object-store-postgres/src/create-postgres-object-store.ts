import { LibosError, type Effect } from '@libos/core';
import { quotaExceeded, type ObjectStoreV1 } from '@libos/object-memory';
import pg from 'pg';
import { databaseFailure } from './database-failure.js';
import { migrate } from './migrate.js';
import {
  declareNamespace,
  deleteNamespace,
  insertObject,
  namespaceExists,
  renewLeases,
  selectNames,
  selectNamespaces,
  selectObject,
  selectObjectByOid,
  selectUsage,
  sweepExpired,
} from './object-queries.js';
import { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';
import { refundUses, spendUses, spentUses } from './uses-ledger.js';

/** Options of `createPostgresObjectStore`: a connection string or a pool of your own, not both. */
export interface PostgresObjectStoreOptions {
  /** A libpq-style URL (`postgres://user:password@host:port/db`); the store makes and ends its own pool. */
  readonly connectionString?: string;
  /** A pool you own: the store never ends it; give it an `error` listener, as node-postgres asks. */
  readonly pool?: pg.Pool;
  /** The schema of the store's tables, created on first use; default `libos`. */
  readonly schema?: string;
  /** Connections of the store's own pool; default 10. */
  readonly maxConnections?: number;
  /** How long a process namespace outlives its last lease renewal; default 30000 ms. */
  readonly leaseMs?: number;
}

// Errors a single statement can end with that roll it back whole, so running it again is safe.
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Opens an Object store in PostgreSQL (CONTRACT.md section 7), creating or upgrading its schema on
 * first use. Every runtime on every host that opens the same database and schema shares its
 * namespaces, Objects, quotas and uses ledger. Throws `invalid_arguments` or `provider_failure`.
 */
export async function createPostgresObjectStore(options: PostgresObjectStoreOptions): Promise<ObjectStoreV1> {
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new LibosError('invalid_arguments', 'Give createPostgresObjectStore either a connectionString or a pool, not both or neither.');
  }
  const schemaName = options.schema ?? DEFAULT_SCHEMA;
  const schema = quoteSchema(schemaName);
  const leaseMs = options.leaseMs ?? 30_000;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1) {
    throw new LibosError('invalid_arguments', 'The option leaseMs must be a positive integer.', { details: { option: 'leaseMs' } });
  }
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
  async function guard<T>(effect: Effect, work: () => Promise<T>): Promise<T> {
    if (closed) throw new LibosError('provider_failure', 'The Object store has been closed.', { effect: 'none' });
    try {
      return await work();
    } catch (error) {
      throw databaseFailure(error, effect);
    }
  }

  return {
    specificationVersion: 'v1',
    name: 'postgres',
    capabilities: { shared: true, durable: true, leaseMs },
    declareNamespace: (namespace, declareOptions) =>
      guard('unknown', () => declareNamespace(pool, schema, namespace, declareOptions?.process === true ? leaseMs : null)),
    hasNamespace: (namespace) => guard('none', () => namespaceExists(pool, schema, namespace)),
    listNamespaces: () => guard('none', () => selectNamespaces(pool, schema)),
    dropNamespace: (namespace) => guard('unknown', () => deleteNamespace(pool, schema, namespace)),
    renewLeases: (namespaces) => guard('unknown', () => renewLeases(pool, schema, namespaces, leaseMs)),
    create: (object, createOptions) =>
      guard('unknown', async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            const outcome = await insertObject(pool, schema, object, createOptions.payloadBytes, createOptions.quota);
            if (outcome === 'namespace_not_found') {
              throw new LibosError('namespace_not_found', 'The namespace does not exist.', { details: { namespace: object.namespace } });
            }
            if (outcome === 'name_taken') {
              throw new LibosError('name_taken', 'A live Object already has this name in the namespace.', {
                details: { namespace: object.namespace, name: object.name },
              });
            }
            return;
          } catch (error) {
            const code = sqlstate(error);
            // The namespace was dropped between the function's lookup and its insert.
            if (code === '23503') {
              throw new LibosError('namespace_not_found', 'The namespace does not exist.', { details: { namespace: object.namespace } });
            }
            if (code === 'LQ001' || code === 'LQ002') {
              throw quotaExceeded(code === 'LQ001' ? 'objects_max_count' : 'objects_max_bytes', usageBefore(error), createOptions);
            }
            // A deadlock or serialization failure rolled the statement back: nothing landed, try again.
            if (code !== undefined && RETRYABLE.has(code) && attempt < 3) continue;
            throw error;
          }
        }
      }),
    get: (namespace, name) => guard('none', () => selectObject(pool, schema, namespace, name)),
    getByOid: (oid) => guard('none', () => selectObjectByOid(pool, schema, oid)),
    listNames: (namespace) => guard('none', () => selectNames(pool, schema, namespace)),
    usage: () =>
      guard('none', async () => {
        // Objects of expired process namespaces are not live: drop them before counting.
        await sweepExpired(pool, schema);
        return selectUsage(pool, schema);
      }),
    spendUses: (key, amount, limit) => guard('unknown', () => spendUses(pool, schema, key, amount, limit)),
    refundUses: (key, amount) => guard('unknown', () => refundUses(pool, schema, key, amount)),
    spentUses: (key) => guard('none', () => spentUses(pool, schema, key)),
    async close() {
      if (closed) return;
      closed = true;
      if (ownPool) await pool.end().catch(() => undefined);
    },
  };
}

function sqlstate(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

// The create function reports the usage it found before this Object in the error's DETAIL.
function usageBefore(error: unknown): { objects: number; bytes: number } {
  const detail = typeof error === 'object' && error !== null && 'detail' in error ? String(error.detail) : '';
  const [objects, bytes] = detail.split(' ').map(Number);
  return { objects: objects ?? 0, bytes: bytes ?? 0 };
}
