import { LibosError, checkStoreSignal, objectStoreErrors, type Effect, type ObjectStoreV1, type StoreCallOptions } from '@libos/core';
import pg from 'pg';
import { STORE_NAME, databaseFailure } from './database-failure.js';
import { migrate } from './migrate.js';
import { holdOwnerLock, type OwnerLock } from './owner-lock.js';
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
  /**
   * A pool you own: the store never ends it; give it an `error` listener, as node-postgres asks.
   * The store also keeps one connection of its own, made with the pool's settings (its liveness lock).
   */
  readonly pool?: pg.Pool;
  /** The schema of the store's tables, created on first use; default `libos`. */
  readonly schema?: string;
  /** Connections of the store's own pool; default 10 (plus the one the store keeps for its liveness lock). */
  readonly maxConnections?: number;
  /** How long a process namespace outlives its last lease renewal; default 30000 ms. */
  readonly leaseMs?: number;
}

// Errors a single statement can end with that roll it back whole, so running it again is safe.
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Opens an Object store in PostgreSQL (docs/objects.md), creating or upgrading its schema on
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
  let ownerLock: OwnerLock;
  try {
    await migrate(pool, schemaName, schema);
    ownerLock = await holdOwnerLock(pool);
  } catch (error) {
    if (ownPool) await pool.end().catch(() => undefined);
    throw databaseFailure(error, 'unknown');
  }

  let closed = false;
  // Every call is one statement: the signal is checked before it is sent, and once more when it
  // settles, so a caller that gave up hears so (with the effect a sent write may have had).
  async function guard<T>(effect: Effect, options: StoreCallOptions | undefined, work: () => Promise<T>): Promise<T> {
    if (closed) throw objectStoreErrors.closed(STORE_NAME);
    checkStoreSignal(options?.signal, STORE_NAME);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      throw databaseFailure(error, effect);
    }
    checkStoreSignal(options?.signal, STORE_NAME, effect);
    return result;
  }

  return {
    specificationVersion: 'v1',
    name: STORE_NAME,
    capabilities: { shared: true, durable: true, leaseMs },
    declareNamespace: (namespace, declareOptions) =>
      guard('unknown', declareOptions, () =>
        declareNamespace(pool, schema, namespace, declareOptions?.process === true ? leaseMs : null, ownerLock.key),
      ),
    hasNamespace: (namespace, callOptions) => guard('none', callOptions, () => namespaceExists(pool, schema, namespace)),
    listNamespaces: (callOptions) => guard('none', callOptions, () => selectNamespaces(pool, schema)),
    dropNamespace: (namespace, callOptions) => guard('unknown', callOptions, () => deleteNamespace(pool, schema, namespace)),
    renewLeases: (namespaces, callOptions) => guard('unknown', callOptions, () => renewLeases(pool, schema, namespaces, leaseMs, ownerLock.key)),
    create: (object, createOptions) =>
      guard('unknown', createOptions, async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            const outcome = await insertObject(pool, schema, object, createOptions.payloadBytes, createOptions.quota);
            if (outcome === 'namespace_not_found') throw objectStoreErrors.namespaceNotFound(object.namespace);
            if (outcome === 'name_taken') throw objectStoreErrors.nameTaken(object.namespace, object.name);
            return;
          } catch (error) {
            const code = sqlstate(error);
            // The namespace was dropped between the function's lookup and its insert.
            if (code === '23503') throw objectStoreErrors.namespaceNotFound(object.namespace);
            if (code === 'LQ001' || code === 'LQ002') {
              throw objectStoreErrors.quotaExceeded(code === 'LQ001' ? 'objects_max_count' : 'objects_max_bytes', usageBefore(error), createOptions);
            }
            // A deadlock or serialization failure rolled the statement back: nothing landed, try again.
            if (code !== undefined && RETRYABLE.has(code) && attempt < 3) continue;
            throw error;
          }
        }
      }),
    get: (namespace, name, callOptions) => guard('none', callOptions, () => selectObject(pool, schema, namespace, name)),
    getByOid: (oid, callOptions) => guard('none', callOptions, () => selectObjectByOid(pool, schema, oid)),
    listNames: (namespace, callOptions) => guard('none', callOptions, () => selectNames(pool, schema, namespace)),
    usage: (callOptions) =>
      guard('none', callOptions, async () => {
        // Objects of expired process namespaces are not live: drop them before counting.
        await sweepExpired(pool, schema);
        return selectUsage(pool, schema);
      }),
    spendUses: (key, amount, limit, callOptions) => guard('unknown', callOptions, () => spendUses(pool, schema, key, amount, limit)),
    refundUses: (key, amount, callOptions) => guard('unknown', callOptions, () => refundUses(pool, schema, key, amount)),
    spentUses: (key, callOptions) => guard('none', callOptions, () => spentUses(pool, schema, key)),
    async close() {
      if (closed) return;
      closed = true;
      await ownerLock.release();
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
