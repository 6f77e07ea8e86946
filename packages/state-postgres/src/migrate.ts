import { LibosError } from '@libos/core';
import { migrateSchema, type MigrationReport } from '@libos/provider-kit';
import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

export type { MigrationReport };

// The first key of the two-key advisory lock: "libS" in ASCII (the Object store's is "libO"), so
// the two stores may share one schema name without waiting on each other.
const LOCK_CLASS = 0x6c696253;

/**
 * Brings `schema` to the newest version of the state tables, creating it on first use, with the provider kit's
 * runner (hosts starting at once take turns). A schema newer than this package is refused.
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
    tooNew: (version, known) =>
      new LibosError('provider_failure', `The state schema is at version ${version}, newer than this libOS knows (${known}); upgrade libOS.`, {
        effect: 'none',
        details: { reason: 'schema_too_new' },
      }),
  });
}
