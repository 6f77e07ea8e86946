import type { Pool } from 'pg';
import { TRIGRAM_INDEX } from './migration-v3.js';

// Schemas already warned about in this process: one line per schema, not one per provider.
const warned = new Set<string>();

/**
 * Whether `schema` has the trigram index search narrows with. Without it (the role could not
 * create pg_trgm when the schema was migrated) search still works, testing every file's first
 * bytes in the server; the process is told so once, with what to run to add the index.
 */
export async function hasTrigramIndex(pool: Pool, schemaName: string): Promise<boolean> {
  const { rows } = await pool.query<{ present: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2) AS present',
    [schemaName, TRIGRAM_INDEX],
  );
  const present = rows[0]?.present === true;
  if (!present && !warned.has(schemaName)) {
    warned.add(schemaName);
    process.emitWarning(
      `schema "${schemaName}" has no trigram index (pg_trgm could not be created when it was migrated, or the index was dropped); search_files works without it, testing every file in the server. To add it, see docs/provider-postgres.md (Search).`,
      { code: 'LIBOS_POSTGRES_NO_TRIGRAM_INDEX' },
    );
  }
  return present;
}
