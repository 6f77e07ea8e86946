import type { Migration } from './migrations.js';

/** The trigram index's name, inside the provider's schema; the provider looks for it when it opens. */
export const TRIGRAM_INDEX = 'chunks_first_trgm';

// Why the search index is what it is (docs/provider-postgres.md#search):
// - pg_trgm indexes text, and a file's bytes may be anything (NUL, invalid UTF-8): the index is on
//   `spelled(data)`, PostgreSQL's `encode(data, 'escape')`, which spells each byte on its own
//   (itself, `\\`, or `\ooo`), so bytes holding a needle spell text holding the needle's spelling,
//   and a LIKE on it never drops a file (it may keep extra ones; the exact test on the bytes follows);
// - `spelled` is the schema's own function, in PL/pgSQL so the planner keeps it as written, with a
//   cost near the truth: priced as the built-in `encode`, a scan that detoasts and spells every
//   chunk looks cheaper to the planner than the index;
// - only a file's first chunk is indexed: a search reads at most its first max_bytes_per_file
//   bytes, and a file whose searched bytes run past its first chunk is tested on its bytes as before;
// - the extension may be out of reach (contrib not installed, a PostgreSQL before 13 where pg_trgm
//   needs a superuser, a policy that refuses it): the step then records itself without the index,
//   the provider says so once when it opens, and search works as before, testing every file's first
//   bytes in the server.
export const v3: Migration = {
  version: 3,
  description: 'a trigram index (pg_trgm) on the first chunk of each file, where the role may create the extension',
  sql: (s) => `
    CREATE FUNCTION ${s}.spelled(p_data bytea) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $fn$
    BEGIN
      RETURN encode(p_data, 'escape');
    END $fn$;

    DO $step$
    DECLARE
      trgm_schema name;
    BEGIN
      BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN insufficient_privilege OR undefined_file OR feature_not_supported OR invalid_schema_name OR undefined_object THEN
        RAISE NOTICE 'libOS: pg_trgm could not be created (%); search works without its index', SQLERRM;
      END;
      SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
      IF trgm_schema IS NOT NULL THEN
        EXECUTE format('CREATE INDEX ${TRIGRAM_INDEX} ON %s.chunks USING gin (%s.spelled(data) %I.gin_trgm_ops) WHERE seq = 0',
          '${s.replaceAll("'", "''")}', '${s.replaceAll("'", "''")}', trgm_schema);
      END IF;
    END $step$;
  `,
};
