/** One step of the store's schema, applied once per schema and recorded in `schema_migrations`. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  /** The SQL of the step for a schema already quoted, e.g. `"libos"`. */
  sql(schema: string): string;
}

// Text columns cannot hold NUL, and a name or a payload can: every name, namespace and grant key
// is the bytea of its UTF-8, and a payload is the bytea of its compact JSON (see the README).
const v1: Migration = {
  version: 1,
  description: 'hosts with leases, namespaces, Objects with a unique name per namespace, usage counters, grant uses',
  sql: (s) => `
    CREATE TABLE ${s}.hosts (
      host_id text PRIMARY KEY,
      lease_expires_at timestamptz NOT NULL
    );

    CREATE TABLE ${s}.namespaces (
      name bytea PRIMARY KEY,
      -- Set for a process:<pid> namespace: it lives as long as its host's lease.
      host_id text REFERENCES ${s}.hosts (host_id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX namespaces_host_id ON ${s}.namespaces (host_id) WHERE host_id IS NOT NULL;

    CREATE TABLE ${s}.objects (
      seq bigserial NOT NULL,
      oid text PRIMARY KEY,
      namespace bytea NOT NULL REFERENCES ${s}.namespaces (name) ON DELETE CASCADE,
      name bytea NOT NULL,
      type text NOT NULL,
      label text NOT NULL,
      payload bytea NOT NULL,
      created_at timestamptz NOT NULL,
      created_by text NOT NULL
    );
    -- This index, not a read before the write, decides which of two creators gets a name.
    CREATE UNIQUE INDEX objects_namespace_name ON ${s}.objects (namespace, name);
    CREATE INDEX objects_namespace_seq ON ${s}.objects (namespace, seq);

    -- What the live Objects take, kept by the triggers below whatever removes them (a dropped
    -- namespace, an expired lease, a cascade), so a quota check reads one row.
    CREATE TABLE ${s}.usage (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      objects bigint NOT NULL,
      bytes bigint NOT NULL
    );
    INSERT INTO ${s}.usage (singleton, objects, bytes) VALUES (true, 0, 0);

    CREATE FUNCTION ${s}.count_inserted_objects() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE ${s}.usage SET objects = objects + counted.n, bytes = bytes + counted.b
        FROM (SELECT count(*) AS n, coalesce(sum(octet_length(payload)), 0) AS b FROM inserted) AS counted
        WHERE counted.n > 0;
      RETURN NULL;
    END $fn$;
    CREATE FUNCTION ${s}.count_deleted_objects() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE ${s}.usage SET objects = objects - counted.n, bytes = bytes - counted.b
        FROM (SELECT count(*) AS n, coalesce(sum(octet_length(payload)), 0) AS b FROM deleted) AS counted
        WHERE counted.n > 0;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER objects_count_inserted AFTER INSERT ON ${s}.objects
      REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.count_inserted_objects();
    CREATE TRIGGER objects_count_deleted AFTER DELETE ON ${s}.objects
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.count_deleted_objects();
    -- Objects are immutable: nothing may change a stored row.
    CREATE FUNCTION ${s}.refuse_object_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      RAISE EXCEPTION 'libOS Objects are immutable' USING ERRCODE = 'restrict_violation';
    END $fn$;
    CREATE TRIGGER objects_immutable BEFORE UPDATE ON ${s}.objects
      FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_object_update();

    -- One statement creates an Object: the namespace is locked against a concurrent drop, the
    -- unique index settles the name, and the quota is checked on the counters this insert moved
    -- (their row lock is held to commit, so two creators cannot both fit in the last slot).
    CREATE FUNCTION ${s}.create_object(
      p_oid text, p_namespace bytea, p_name bytea, p_type text, p_label text, p_payload bytea,
      p_created_at timestamptz, p_created_by text, p_max_objects bigint, p_max_bytes bigint
    ) RETURNS text LANGUAGE plpgsql AS $fn$
    DECLARE
      used_objects bigint;
      used_bytes bigint;
    BEGIN
      PERFORM 1 FROM ${s}.namespaces WHERE name = p_namespace FOR KEY SHARE;
      IF NOT FOUND THEN RETURN 'namespace_not_found'; END IF;
      INSERT INTO ${s}.objects (oid, namespace, name, type, label, payload, created_at, created_by)
        VALUES (p_oid, p_namespace, p_name, p_type, p_label, p_payload, p_created_at, p_created_by)
        ON CONFLICT (namespace, name) DO NOTHING;
      IF NOT FOUND THEN RETURN 'name_taken'; END IF;
      SELECT objects, bytes INTO used_objects, used_bytes FROM ${s}.usage;
      IF used_objects > p_max_objects OR used_bytes > p_max_bytes THEN
        RAISE EXCEPTION 'libOS Object quota exceeded' USING ERRCODE = 'LQ001',
          DETAIL = format('%s objects, %s bytes', used_objects, used_bytes);
      END IF;
      RETURN 'created';
    END $fn$;

    CREATE TABLE ${s}.grant_uses (
      policy_id bytea NOT NULL,
      grant_key bytea NOT NULL,
      spent bigint NOT NULL CHECK (spent >= 0),
      PRIMARY KEY (policy_id, grant_key)
    );
  `,
};

/** Every migration, in order; a new step is appended, never edited once released. */
export const MIGRATIONS: readonly Migration[] = [v1];
