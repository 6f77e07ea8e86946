import { LibosError } from '@libos/core';
import { migrateSchema, type MigrationReport } from '@libos/provider-kit';
import type { Pool } from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

export type { MigrationReport };

// The first key of the two-key advisory lock: "lbFS" in ASCII, apart from the Object store's, so
// the two never wait on each other even when they share a schema name.
const LOCK_CLASS = 0x6c624653;

/**
 * Brings `schema` to the newest version of the provider's tables, creating it on first use, with
 * the provider kit's runner (hosts starting at once take turns; the steps run in one transaction). A schema
 * newer than this package is refused (`provider_failure`, effect `none`) rather than used.
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
      new LibosError(
        'provider_failure',
        `The schema "${schemaName}" is at version ${version}, newer than this package knows (${known}); upgrade @libos/provider-postgres.`,
        { effect: 'none', details: { path: '.', reason: 'schema_too_new', schema_version: version, known_version: known } },
      ),
  });
}
