import { CHUNK_BYTES } from './chunk-bytes.js';
import type { Migration } from './migrations.js';

const C = CHUNK_BYTES;

// Why appends and copies are what they are (docs/provider-postgres.md#appends-and-copies):
// - an append fills the last chunk and adds new ones, so it costs at most one chunk rewritten plus
//   the bytes added, never the file; every chunk but the last stays full, which reads rely on;
// - an append cannot know the new SHA-256 without reading the file, so it clears the stored hash;
//   a guarded write that meets a cleared hash computes it from the chunks, under the same lock, in
//   the same statement (its caller read the whole file to have a hash to give);
// - a copy duplicates the source's chunk rows inside the database: no byte travels to the client;
// - both run under the workspace lock, as every change does, so they serialize with every other
//   change on every host: no append is lost, and a copy sees its source before a write or after.
export const v2: Migration = {
  version: 2,
  description: 'append_file and copy_file; write_file computes a hash an append cleared',
  sql: (s) => `
    -- The SHA-256 of a content's bytes (the empty content for null). Bounded by what one bytea holds
    -- (1 GB): past that it raises, and the guarded write fails rather than guess.
    CREATE FUNCTION ${s}.content_sha256(p_content bigint) RETURNS bytea LANGUAGE sql STABLE AS $fn$
      SELECT sha256(coalesce((SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM ${s}.chunks c WHERE c.content_id = p_content), ''::bytea))
    $fn$;

    -- Adds p_data (p_prefix || p_data when the file is empty or new) at the end of a file, every
    -- check before the first change. status is ok or a refusal; appended the bytes added (or that
    -- would have been, for quota_exceeded); new_size the size after; detail the size found
    -- (size_conflict) or the bytes in use (quota_exceeded).
    CREATE FUNCTION ${s}.append_file(
      p_workspace bigint, p_root bigint, p_names bytea[], p_data bytea, p_prefix bytea,
      p_create boolean, p_expected_size bigint, p_max_bytes bigint
    ) RETURNS TABLE (status text, depth integer, created boolean, appended bigint, new_size bigint, detail text) LANGUAGE plpgsql AS $fn$
    DECLARE
      n integer := cardinality(p_names);
      used bigint;
      w record;
      leaf_id bigint;
      leaf_kind "char";
      leaf_size bigint := 0;
      leaf_content bigint;
      parent bigint;
      added bytea := p_data;
      added_size bigint;
      content bigint;
      tail_room integer;
      rest bytea;
      next_seq integer;
    BEGIN
      SELECT x.used_bytes INTO used FROM ${s}.workspaces x WHERE x.id = p_workspace FOR NO KEY UPDATE;
      IF NOT FOUND THEN RETURN QUERY SELECT 'root_gone', 0, false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
      IF n = 0 THEN RETURN QUERY SELECT 'not_a_file', 0, false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
      SELECT * INTO w FROM ${s}.walk(p_root, p_names, n - 1);
      IF w.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 0, false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
      IF w.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', w.reached, false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
      IF w.reached = n - 1 THEN
        SELECT e.id, e.kind, e.size_bytes, e.content_id INTO leaf_id, leaf_kind, leaf_size, leaf_content
          FROM ${s}.entries e WHERE e.parent_id = w.entry_id AND e.name = p_names[n];
      END IF;
      IF leaf_id IS NULL THEN
        IF NOT p_create THEN RETURN QUERY SELECT 'not_found', least(w.reached + 1, n), false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
        IF p_expected_size IS NOT NULL AND p_expected_size <> 0 THEN
          RETURN QUERY SELECT 'size_conflict', n, false, 0::bigint, 0::bigint, NULL::text; RETURN;
        END IF;
        leaf_size := 0;
      ELSE
        IF leaf_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', n, false, 0::bigint, 0::bigint, NULL::text; RETURN; END IF;
        IF p_expected_size IS NOT NULL AND p_expected_size <> leaf_size THEN
          RETURN QUERY SELECT 'size_conflict', n, false, 0::bigint, leaf_size, leaf_size::text; RETURN;
        END IF;
      END IF;
      IF leaf_size = 0 AND p_prefix IS NOT NULL THEN added := p_prefix || p_data; END IF;
      added_size := octet_length(added);
      IF added_size > 0 AND used + added_size > p_max_bytes THEN
        RETURN QUERY SELECT 'quota_exceeded', n, false, added_size, leaf_size, used::text; RETURN;
      END IF;
      IF leaf_id IS NULL THEN
        parent := w.entry_id;
        IF w.reached < n - 1 THEN parent := ${s}.make_directories(p_workspace, parent, p_names, w.reached + 1, n - 1); END IF;
        IF added_size > 0 THEN
          content := nextval('${s}.content_ids');
          INSERT INTO ${s}.chunks (content_id, seq, data)
            SELECT content, g, substring(added FROM g * ${C} + 1 FOR ${C}) FROM generate_series(0, ((added_size - 1) / ${C})::integer) g;
        END IF;
        INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode, size_bytes, sha256, content_id)
          VALUES (p_workspace, parent, p_names[n], 'f', 420, added_size, sha256(added), content);
        UPDATE ${s}.workspaces SET used_bytes = used_bytes + added_size WHERE id = p_workspace;
        RETURN QUERY SELECT 'ok', n, true, added_size, added_size, NULL::text;
        RETURN;
      END IF;
      IF added_size = 0 THEN RETURN QUERY SELECT 'ok', n, false, 0::bigint, leaf_size, NULL::text; RETURN; END IF;
      content := coalesce(leaf_content, nextval('${s}.content_ids'));
      rest := added;
      next_seq := (leaf_size / ${C})::integer;
      IF leaf_size % ${C} <> 0 THEN
        -- The last chunk is partial: it takes what fits, and only it is rewritten.
        tail_room := (${C} - leaf_size % ${C})::integer;
        UPDATE ${s}.chunks c SET data = c.data || substring(added FROM 1 FOR tail_room) WHERE c.content_id = content AND c.seq = next_seq;
        IF NOT FOUND THEN RAISE EXCEPTION 'the last chunk of content % is missing', content USING ERRCODE = 'data_corrupted'; END IF;
        rest := substring(added FROM tail_room + 1);
        next_seq := next_seq + 1;
      END IF;
      IF octet_length(rest) > 0 THEN
        INSERT INTO ${s}.chunks (content_id, seq, data)
          SELECT content, next_seq + g, substring(rest FROM g * ${C} + 1 FOR ${C}) FROM generate_series(0, (octet_length(rest) - 1) / ${C}) g;
      END IF;
      UPDATE ${s}.entries SET content_id = content, size_bytes = leaf_size + added_size, sha256 = NULL, modified_at = clock_timestamp()
        WHERE id = leaf_id;
      UPDATE ${s}.workspaces SET used_bytes = used_bytes + added_size WHERE id = p_workspace;
      RETURN QUERY SELECT 'ok', n, false, added_size, leaf_size + added_size, NULL::text;
    END $fn$;

    -- Copies one file in one step, its chunk rows duplicated on the server; side says which path
    -- a refusal concerns, detail holds the bytes in use for quota_exceeded.
    CREATE FUNCTION ${s}.copy_file(p_workspace bigint, p_root bigint, p_from bytea[], p_to bytea[], p_overwrite boolean, p_max_bytes bigint)
      RETURNS TABLE (status text, side text, depth integer, copied bigint, replaced boolean, detail text) LANGUAGE plpgsql AS $fn$
    DECLARE
      nf integer := cardinality(p_from);
      nt integer := cardinality(p_to);
      used bigint;
      f record;
      t record;
      src record;
      target_id bigint;
      target_kind "char";
      target_size bigint := 0;
      target_content bigint;
      parent bigint;
      content bigint;
    BEGIN
      SELECT x.used_bytes INTO used FROM ${s}.workspaces x WHERE x.id = p_workspace FOR NO KEY UPDATE;
      IF NOT FOUND THEN RETURN QUERY SELECT 'root_gone', 'from', 0, 0::bigint, false, NULL::text; RETURN; END IF;
      SELECT * INTO f FROM ${s}.walk(p_root, p_from, nf);
      IF f.reached = -1 THEN RETURN QUERY SELECT 'root_gone', 'from', 0, 0::bigint, false, NULL::text; RETURN; END IF;
      IF f.reached < nf AND f.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', 'from', f.reached, 0::bigint, false, NULL::text; RETURN; END IF;
      IF f.reached < nf THEN RETURN QUERY SELECT 'not_found', 'from', f.reached + 1, 0::bigint, false, NULL::text; RETURN; END IF;
      IF f.entry_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', 'from', nf, 0::bigint, false, NULL::text; RETURN; END IF;
      SELECT e.size_bytes, e.sha256, e.content_id, e.mode INTO src FROM ${s}.entries e WHERE e.id = f.entry_id;
      IF nt = 0 THEN RETURN QUERY SELECT 'not_a_file', 'to', 0, 0::bigint, false, NULL::text; RETURN; END IF;
      SELECT * INTO t FROM ${s}.walk(p_root, p_to, nt - 1);
      IF t.entry_kind <> 'd' THEN RETURN QUERY SELECT 'not_a_directory', 'to', t.reached, 0::bigint, false, NULL::text; RETURN; END IF;
      IF t.reached = nt - 1 THEN
        SELECT e.id, e.kind, e.size_bytes, e.content_id INTO target_id, target_kind, target_size, target_content
          FROM ${s}.entries e WHERE e.parent_id = t.entry_id AND e.name = p_to[nt];
      END IF;
      IF target_id IS NOT NULL THEN
        -- The wrong kind wins over overwrite false, as for a write or a rename.
        IF target_kind = 'd' THEN RETURN QUERY SELECT 'not_a_file', 'to', nt, 0::bigint, false, NULL::text; RETURN; END IF;
        IF NOT p_overwrite THEN RETURN QUERY SELECT 'already_exists', 'to', nt, 0::bigint, false, NULL::text; RETURN; END IF;
        -- A file copied onto itself already holds its bytes and mode.
        IF target_id = f.entry_id THEN RETURN QUERY SELECT 'ok', 'to', nt, src.size_bytes, true, NULL::text; RETURN; END IF;
      ELSE
        target_size := 0;
      END IF;
      IF src.size_bytes > target_size AND used + src.size_bytes - target_size > p_max_bytes THEN
        RETURN QUERY SELECT 'quota_exceeded', 'to', nt, src.size_bytes, false, used::text; RETURN;
      END IF;
      parent := t.entry_id;
      IF t.reached < nt - 1 THEN parent := ${s}.make_directories(p_workspace, parent, p_to, t.reached + 1, nt - 1); END IF;
      IF src.content_id IS NOT NULL AND src.size_bytes > 0 THEN
        content := nextval('${s}.content_ids');
        INSERT INTO ${s}.chunks (content_id, seq, data) SELECT content, c.seq, c.data FROM ${s}.chunks c WHERE c.content_id = src.content_id;
      END IF;
      -- Permission and sticky bits only: a copy is a new file, setuid and setgid never carry over.
      IF target_id IS NOT NULL THEN
        IF target_content IS NOT NULL THEN DELETE FROM ${s}.chunks WHERE content_id = target_content; END IF;
        UPDATE ${s}.entries SET content_id = content, size_bytes = src.size_bytes, sha256 = src.sha256, mode = src.mode & 1023,
          modified_at = clock_timestamp() WHERE id = target_id;
      ELSE
        INSERT INTO ${s}.entries (workspace_id, parent_id, name, kind, mode, size_bytes, sha256, content_id)
          VALUES (p_workspace, parent, p_to[nt], 'f', src.mode & 1023, src.size_bytes, src.sha256, content);
      END IF;
      UPDATE ${s}.workspaces SET used_bytes = used_bytes + src.size_bytes - target_size WHERE id = p_workspace;
      RETURN QUERY SELECT 'ok', 'to', nt, src.size_bytes, target_id IS NOT NULL, NULL::text;
    END $fn$;

    -- As in version 1, but a hash an append cleared is computed before it is compared.
    CREATE OR REPLACE FUNCTION ${s}.write_file(
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
        IF p_expected IS NOT NULL AND leaf_sha256 IS NULL THEN leaf_sha256 := ${s}.content_sha256(leaf_content); END IF;
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
  `,
};
