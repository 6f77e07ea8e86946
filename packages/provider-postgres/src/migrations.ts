import type { SchemaMigration } from '@libos/provider-kit';
import { CHUNK_BYTES } from './chunk-bytes.js';
import { v2 } from './migration-v2.js';
import { v3 } from './migration-v3.js';

export { CHUNK_BYTES };

/** One step of the schema (core's `SchemaMigration`), applied once per schema and recorded in `schema_migrations`. */
export type Migration = SchemaMigration;

// Why the layout is what it is (docs/provider-postgres.md#the-schema):
// - an entry is a row keyed by (parent_id, name), names as the bytea of their UTF-8, so a listing is
//   one index range scan in byte order, which is code-point order, and a canonical path of 4096
//   bytes never has to fit in one btree entry;
// - the self-referencing foreign key makes an orphan impossible whatever a caller does;
// - every change runs under the workspace row's lock (FOR NO KEY UPDATE), so the checks a function
//   makes still hold when it acts, and quota accounting on that row is exact;
// - chunk bytes are stored uncompressed out of line (STORAGE EXTERNAL) so `substring` of a chunk
//   reads only the slices it returns.
const v1: Migration = {
  version: 1,
  description: 'workspaces, entries by parent and name, chunked contents, walk and change functions',
  sql: (s) => `
    CREATE TABLE ${s}.workspaces (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL UNIQUE,
      used_bytes bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE ${s}.entries (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      workspace_id bigint NOT NULL REFERENCES ${s}.workspaces (id) ON DELETE CASCADE,
      parent_id bigint REFERENCES ${s}.entries (id),
      name bytea NOT NULL,
      kind "char" NOT NULL CHECK (kind IN ('d', 'f')),
      mode integer NOT NULL,
      size_bytes bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
      sha256 bytea,
      content_id bigint,
      modified_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      CHECK ((parent_id IS NULL) = (name = ''::bytea))
    );
    CREATE UNIQUE INDEX entries_parent_name ON ${s}.entries (parent_id, name);
    CREATE UNIQUE INDEX entries_root ON ${s}.entries (workspace_id) WHERE parent_id IS NULL;
    CREATE INDEX entries_workspace ON ${s}.entries (workspace_id);

    CREATE SEQUENCE ${s}.content_ids;
    CREATE TABLE ${s}.chunks (
      content_id bigint NOT NULL,
      seq integer NOT NULL CHECK (seq >= 0),
      data bytea NOT NULL CHECK (octet_length(data) BETWEEN 1 AND ${CHUNK_BYTES}),
      PRIMARY KEY (content_id, seq)
    );
    ALTER TABLE ${s}.chunks ALTER COLUMN data SET STORAGE EXTERNAL;

    -- Whatever removes entries (a delete, a replacing rename, a dropped workspace) takes their
    -- chunks and their bytes with them.
    CREATE FUNCTION ${s}.entries_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM ${s}.chunks c USING deleted d WHERE c.content_id = d.content_id;
      UPDATE ${s}.workspaces w SET used_bytes = w.used_bytes - t.bytes
        FROM (SELECT workspace_id, sum(size_bytes) AS bytes FROM deleted WHERE kind = 'f' GROUP BY workspace_id) t
        WHERE w.id = t.workspace_id;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER entries_deleted AFTER DELETE ON ${s}.entries
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.entries_deleted();

    -- Walks the first p_count names from the root. reached: how many were found (-1: no root);
    -- the entry is the last one found. reached < p_count with a directory means name reached+1 is
    -- missing; with a file, that file stands where a directory was needed. STABLE: inside a read
    -- it sees the calling statement's snapshot, so a walk and what follows it agree. ROWS 1 tells
    -- the planner so, which keeps the joins after it on index lookups.
    CREATE FUNCTION ${s}.walk(p_root bigint, p_names bytea[], p_count integer)
      RETURNS TABLE (reached integer, entry_id bigint, entry_kind "char") LANGUAGE plpgsql STABLE ROWS 1 AS $fn$
    DECLARE
      current_id bigint := p_root;
      current_kind "char";
      next_id bigint;
      next_kind "char";
    BEGIN
      SELECT e.kind INTO current_kind FROM ${s}.entries e WHERE e.id = p_root;
      IF NOT FOUND THEN
        RETURN QUERY SELECT -1, NULL::bigint, NULL::"char";
        RETURN;
      END IF;
      FOR i IN 1 .. p_count LOOP
        IF current_kind <> 'd' THEN
          RETURN QUERY SELECT i - 1, current_id, current_kind;
          RETURN;
        END IF;
        SELECT e.id, e.kind INTO next_id, next_kind FROM ${s}.entries e WHERE e.parent_id = current_id AND e.name = p_names[i];
        IF NOT FOUND THEN
          RETURN QUERY SELECT i - 1, current_id, current_kind;
          RETURN;
        END IF;
        current_id := next_id;
        current_kind := next_kind;
      END LOOP;
      RETURN QUERY SELECT p_count, current_id, current_kind;
    END $fn$;

    -- Takes the workspace lock every change holds to its commit; false when the workspace is gone.
    CREATE FUNCTION ${s}.lock_workspace(p_workspace bigint) RETURNS boolean LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM 1 FROM ${s}.workspaces WHERE id = p_workspace FOR NO KEY UPDATE;
      RETURN FOUND;
    END $fn$;

    -- Makes directories p_names[p_from .. p_to] under p_parent; returns the last one's id.
    CREATE FUNCTION ${s}.make_directories(p_workspace bigint, p_parent bigint, p_names bytea[], p_from integer, p_to integer)
      RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      parent bigint := p_parent;
    BEGIN
      FOR i IN p_from .. p_to LOOP
        INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode) VALUES (p_workspace, parent, p_names[i], 'd', 493)
          RETURNING id INTO parent;
      END LOOP;
      RETURN parent;
    END $fn$;

    -- Creates or replaces one file in one step. Every check comes before the first change, so a
    -- refusal changes nothing; p_content names chunks the caller inserted earlier in the same
    -- transaction (null: none), p_data is one more chunk at p_data_seq. status is ok or a refusal,
    -- depth the number of names of the path it concerns, detail a hash or the bytes in use.
    CREATE FUNCTION ${s}.write_file(
      p_workspace bigint, p_root bigint, p_names bytea[], p_content bigint, p_data bytea, p_data_seq integer,
      p_size bigint, p_sha256 bytea, p_overwrite boolean, p_expected text, p_max_bytes bigint
    ) RETURNS TABLE (status text, depth integer, created boolean, detail text) LANGUAGE plpgsql AS $fn$
    DECLARE
      n integer := cardinality(p_names);
      used bigint;
      w record;
      leaf_id bigint;
      leaf_kind "char";
      leaf_size bigint := 0;
      leaf_sha256 bytea;
      leaf_content bigint;
      parent bigint;
      content bigint := p_content;
    BEGIN
      SELECT used_bytes INTO used FROM ${s}.workspaces WHERE id = p_workspace FOR NO KEY UPDATE;
      IF NOT FOUND THEN RETURN QUERY SELECT 'root_gone', 0, false, NULL::text; RETURN; END IF;
      SELECT * INTO w FROM ${s}.walk(p_root, p_names, n - 1);
      IF w.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 0, false, NULL::text; RETURN; END IF;
      IF w.entry_kind <> 'd' THEN
        RETURN QUERY SELECT 'not_a_directory', w.reached, false, NULL::text; RETURN;
      END IF;
      IF w.reached = n - 1 THEN
        SELECT e.id, e.kind, e.size_bytes, e.sha256, e.content_id INTO leaf_id, leaf_kind, leaf_size, leaf_sha256, leaf_content
          FROM ${s}.entries e WHERE e.parent_id = w.entry_id AND e.name = p_names[n];
      END IF;
      IF leaf_id IS NOT NULL THEN
        IF leaf_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', n, false, NULL::text; RETURN; END IF;
        IF NOT p_overwrite THEN RETURN QUERY SELECT 'already_exists', n, false, NULL::text; RETURN; END IF;
        IF p_expected = 'missing' THEN RETURN QUERY SELECT 'conflict_exists', n, false, NULL::text; RETURN; END IF;
        IF p_expected IS NOT NULL AND encode(leaf_sha256, 'hex') <> p_expected THEN
          RETURN QUERY SELECT 'conflict', n, false, encode(leaf_sha256, 'hex'); RETURN;
        END IF;
      ELSE
        leaf_size := 0;
        IF p_expected IS NOT NULL AND p_expected <> 'missing' THEN
          RETURN QUERY SELECT 'conflict_missing', n, false, NULL::text; RETURN;
        END IF;
      END IF;
      IF p_size > leaf_size AND used + p_size - leaf_size > p_max_bytes THEN
        RETURN QUERY SELECT 'quota_exceeded', n, false, used::text; RETURN;
      END IF;
      parent := w.entry_id;
      IF w.reached < n - 1 THEN
        parent := ${s}.make_directories(p_workspace, parent, p_names, w.reached + 1, n - 1);
      END IF;
      IF content IS NULL AND p_data IS NOT NULL THEN content := nextval('${s}.content_ids'); END IF;
      IF p_data IS NOT NULL THEN
        INSERT INTO ${s}.chunks (content_id, seq, data) VALUES (content, p_data_seq, p_data);
      END IF;
      IF leaf_id IS NOT NULL THEN
        IF leaf_content IS NOT NULL THEN DELETE FROM ${s}.chunks WHERE content_id = leaf_content; END IF;
        UPDATE ${s}.entries SET content_id = content, size_bytes = p_size, sha256 = p_sha256, modified_at = clock_timestamp()
          WHERE id = leaf_id;
      ELSE
        INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode, size_bytes, sha256, content_id)
          VALUES (p_workspace, parent, p_names[n], 'f', 420, p_size, p_sha256, content);
      END IF;
      UPDATE ${s}.workspaces SET used_bytes = used_bytes + p_size - leaf_size WHERE id = p_workspace;
      RETURN QUERY SELECT 'ok', n, leaf_id IS NULL, NULL::text;
    END $fn$;

    CREATE FUNCTION ${s}.make_directory(p_workspace bigint, p_root bigint, p_names bytea[], p_parents boolean, p_exist_ok boolean)
      RETURNS TABLE (status text, depth integer, created boolean) LANGUAGE plpgsql AS $fn$
    DECLARE
      n integer := cardinality(p_names);
      w record;
    BEGIN
      IF NOT ${s}.lock_workspace(p_workspace) THEN RETURN QUERY SELECT 'root_gone', 0, false; RETURN; END IF;
      SELECT * INTO w FROM ${s}.walk(p_root, p_names, n);
      IF w.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 0, false; RETURN; END IF;
      IF w.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', w.reached, false; RETURN; END IF;
      IF w.reached = n THEN
        IF p_exist_ok THEN RETURN QUERY SELECT 'ok', n, false; RETURN; END IF;
        RETURN QUERY SELECT 'already_exists', n, false; RETURN;
      END IF;
      IF w.reached < n - 1 AND NOT p_parents THEN RETURN QUERY SELECT 'not_found', w.reached + 1, false; RETURN; END IF;
      PERFORM ${s}.make_directories(p_workspace, w.entry_id, p_names, w.reached + 1, n);
      RETURN QUERY SELECT 'ok', n, true;
    END $fn$;

    -- Deletes one file (p_directory false) or one empty directory (true).
    CREATE FUNCTION ${s}.delete_entry(p_workspace bigint, p_root bigint, p_names bytea[], p_directory boolean, p_missing_ok boolean)
      RETURNS TABLE (status text, depth integer, deleted boolean) LANGUAGE plpgsql AS $fn$
    DECLARE
      n integer := cardinality(p_names);
      w record;
    BEGIN
      IF NOT ${s}.lock_workspace(p_workspace) THEN RETURN QUERY SELECT 'root_gone', 0, false; RETURN; END IF;
      SELECT * INTO w FROM ${s}.walk(p_root, p_names, n);
      IF w.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 0, false; RETURN; END IF;
      IF w.reached < n AND w.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', w.reached, false; RETURN; END IF;
      IF w.reached < n THEN
        IF p_missing_ok THEN RETURN QUERY SELECT 'ok', n, false; RETURN; END IF;
        RETURN QUERY SELECT 'not_found', w.reached + 1, false; RETURN;
      END IF;
      IF NOT p_directory AND w.entry_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', n, false; RETURN; END IF;
      IF p_directory AND w.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', n, false; RETURN; END IF;
      IF p_directory AND EXISTS (SELECT 1 FROM ${s}.entries WHERE parent_id = w.entry_id) THEN
        RETURN QUERY SELECT 'directory_not_empty', n, false; RETURN;
      END IF;
      DELETE FROM ${s}.entries WHERE id = w.entry_id;
      RETURN QUERY SELECT 'ok', n, true;
    END $fn$;

    -- Moves one file in one step; side says which path a refusal concerns.
    CREATE FUNCTION ${s}.rename_file(p_workspace bigint, p_root bigint, p_from bytea[], p_to bytea[], p_overwrite boolean)
      RETURNS TABLE (status text, side text, depth integer, replaced boolean) LANGUAGE plpgsql AS $fn$
    DECLARE
      nf integer := cardinality(p_from);
      nt integer := cardinality(p_to);
      f record;
      t record;
      target_id bigint;
      target_kind "char";
      parent bigint;
    BEGIN
      IF NOT ${s}.lock_workspace(p_workspace) THEN RETURN QUERY SELECT 'root_gone', 'from', 0, false; RETURN; END IF;
      SELECT * INTO f FROM ${s}.walk(p_root, p_from, nf);
      IF f.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 'from', 0, false; RETURN; END IF;
      IF f.reached < nf AND f.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', 'from', f.reached, false; RETURN; END IF;
      IF f.reached < nf THEN RETURN QUERY SELECT 'not_found', 'from', f.reached + 1, false; RETURN; END IF;
      IF f.entry_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', 'from', nf, false; RETURN; END IF;
      IF nt = 0 THEN RETURN QUERY SELECT 'not_a_file', 'to', 0, false; RETURN; END IF;
      SELECT * INTO t FROM ${s}.walk(p_root, p_to, nt - 1);
      IF t.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', 'to', t.reached, false; RETURN; END IF;
      IF t.reached = nt - 1 THEN
        SELECT e.id, e.kind INTO target_id, target_kind FROM ${s}.entries e WHERE e.parent_id = t.entry_id AND e.name = p_to[nt];
      END IF;
      IF target_id IS NOT NULL THEN
        IF target_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', 'to', nt, false; RETURN; END IF;
        IF NOT p_overwrite THEN RETURN QUERY SELECT 'already_exists', 'to', nt, false; RETURN; END IF;
        IF target_id = f.entry_id THEN RETURN QUERY SELECT 'ok', 'to', nt, false; RETURN; END IF;
      END IF;
      parent := t.entry_id;
      IF t.reached < nt - 1 THEN parent := ${s}.make_directories(p_workspace, parent, p_to, t.reached + 1, nt - 1); END IF;
      IF target_id IS NOT NULL THEN DELETE FROM ${s}.entries WHERE id = target_id; END IF;
      UPDATE ${s}.entries SET parent_id = parent, name = p_to[nt] WHERE id = f.entry_id;
      RETURN QUERY SELECT 'ok', 'to', nt, target_id IS NOT NULL;
    END $fn$;
  `,
};

/** Every migration, in order; a new step is appended, never edited once released. */
export const MIGRATIONS: readonly Migration[] = [v1, v2, v3];
