import { LibosError } from '@libos/core';
import { quoteSchema } from '@libos/provider-kit';
import pg from 'pg';
import { consumeRequestState, forgetExpiredStates, sharedApprovalKey } from './approval-queries.js';
import { DEFAULT_STATE_SCHEMA, type PostgresStateOptions } from './create-postgres-process-store.js';
import { databaseFailure } from './database-failure.js';
import { migrate } from './migrate.js';

/**
 * What `@libos/mcp`'s 2026-07-28 approvals take (`ApprovalRoundsOptions`): the seal key every host
 * shares and the store of used requestStates. Structural, so this package depends on core alone.
 */
export interface PostgresApprovalState {
  readonly key: Uint8Array;
  readonly store: { consume(id: string, expiresAt: number): Promise<boolean> };
  close(): Promise<void>;
}

// Expired ids are forgotten now and then, not on every consume: a consume stays one statement.
const FORGET_EVERY = 256;

/** Opens the approvals' shared state in PostgreSQL (docs/fleet.md). Throws `invalid_arguments` or `provider_failure`. */
export async function createPostgresApprovalState(options: PostgresStateOptions): Promise<PostgresApprovalState> {
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new LibosError('invalid_arguments', 'Give createPostgresApprovalState either a connectionString or a pool, not both or neither.');
  }
  const schemaName = options.schema ?? DEFAULT_STATE_SCHEMA;
  const schema = quoteSchema(schemaName);
  const ownPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 4 });
  if (ownPool) pool.on('error', () => undefined);
  let key: Uint8Array;
  try {
    await migrate(pool, schemaName, schema);
    key = await sharedApprovalKey(pool, schema);
  } catch (error) {
    if (ownPool) await pool.end().catch(() => undefined);
    throw databaseFailure(error, 'unknown');
  }
  let consumed = 0;
  return {
    key,
    store: {
      async consume(id, expiresAt) {
        if (++consumed % FORGET_EVERY === 0) await forgetExpiredStates(pool, schema).catch(() => undefined);
        try {
          return await consumeRequestState(pool, schema, id, expiresAt);
        } catch (error) {
          // A state whose use could not be recorded is refused: never a second use by accident.
          throw databaseFailure(error, 'unknown');
        }
      },
    },
    async close() {
      if (ownPool) await pool.end().catch(() => undefined);
    },
  };
}
