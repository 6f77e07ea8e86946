import { objectStoreErrors } from '@libos/core';
import { migrateSchema, type MigrationReport } from '@libos/provider-kit';
import type { Pool } from 'pg';
import { STORE_NAME } from './database-failure.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export type { MigrationReport };

// The first key of the two-key advisory lock: "libO" in ASCII, so no other application's lock
// on the same schema name collides with ours by accident.
const LOCK_CLASS = 0x6c69624f;

/**
 * Brings `schema` to the newest version of the store's tables, creating it on first use, with
 * the provider kit's runner (hosts starting at once take turns; the steps run in one transaction). A schema
 * newer than this package is refused rather than used with a layout it does not know.
 */
export function migrate(
  pool: Pool,
  schemaName: string,
  quotedSchema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<MigrationReport> {
  return migrateSchema(pool, {
    schemaName,
    quotedSchema,
    migrations,
    lockClass: LOCK_CLASS,
    tooNew: (version, known) => objectStoreErrors.schemaTooNew(STORE_NAME, version, known),
  });
}
