import type { SchemaMigration } from '@libos/provider-kit';
import { OWNER_LOCK_CLASS } from './owner-lock.js';
/** One step of the schema (core's `SchemaMigration`), applied once per schema and recorded in `schema_migrations`. */
export type Migration = SchemaMigration;

// Text columns cannot hold NUL, and a name, a payload or a ledger key can: each is the bytea of
// its UTF-8, and a payload is the bytea of its compact JSON (see the README). Every text column
// holds only values the store itself checks (oids, types, labels). Names and keys may be far longer
// than a btree entry can hold (about 2.7 kB), so the unique indexes are on their SHA-256, and every
// lookup compares the bytes themselves too.
const v1: Migration = {
  version: 1,
  description: 'namespaces with leases, Objects with a unique name per namespace, usage counters, the uses ledger',
  sql: (s) => `
    CREATE TABLE ${s}.namespaces (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name bytea NOT NULL,
      -- Set for a process:<pid> namespace: past it, the namespace and its Objects are gone.
      lease_expires_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX namespaces_name ON ${s}.namespaces ((sha256(name)));
    CREATE INDEX namespaces_lease_expires_at ON ${s}.namespaces (lease_expires_at) WHERE lease_expires_at IS NOT NULL;

    CREATE TABLE ${s}.objects (
      seq bigint GENERATED ALWAYS AS IDENTITY,
      oid text PRIMARY KEY,
      namespace_id bigint NOT NULL REFERENCES ${s}.namespaces (id) ON DELETE CASCADE,
      name bytea NOT NULL,
      type text NOT NULL,
      label text NOT NULL,
      payload bytea NOT NULL,
      payload_bytes bigint NOT NULL CHECK (payload_bytes >= 0),
      created_at bytea NOT NULL,
      created_by bytea NOT NULL
    );
    -- This index, not a read before the write, decides which of two creators gets a name.
    CREATE UNIQUE INDEX objects_namespace_name ON ${s}.objects (namespace_id, (sha256(name)));
    CREATE INDEX objects_namespace_seq ON ${s}.objects (namespace_id, seq);

    -- What the live Objects take, so a quota check reads one row: create_object adds each Object
    -- (Objects are inserted only through it), and the trigger below subtracts whatever removes
    -- them (a dropped namespace, an expired lease, a cascade, a hand-made DELETE).
    CREATE TABLE ${s}.usage (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      objects bigint NOT NULL,
      bytes bigint NOT NULL
    );
    INSERT INTO ${s}.usage (singleton, objects, bytes) VALUES (true, 0, 0);

    CREATE FUNCTION ${s}.count_deleted_objects() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      UPDATE ${s}.usage SET objects = objects - counted.n, bytes = bytes - counted.b
        FROM (SELECT count(*) AS n, coalesce(sum(payload_bytes), 0) AS b FROM deleted) AS counted
        WHERE counted.n > 0;
      RETURN NULL;
    END $fn$;
    CREATE TRIGGER objects_count_deleted AFTER DELETE ON ${s}.objects
      REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.count_deleted_objects();
    -- Objects are immutable: nothing may change a stored row.
    CREATE FUNCTION ${s}.refuse_object_update() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      RAISE EXCEPTION 'libOS Objects are immutable' USING ERRCODE = 'restrict_violation';
    END $fn$;
    CREATE TRIGGER objects_immutable BEFORE UPDATE ON ${s}.objects
      FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_object_update();

    -- One statement creates an Object. The insert's foreign key check locks the namespace row
    -- against a concurrent drop (a namespace gone meanwhile fails with foreign_key_violation), the
    -- unique index settles the name, and the quotas are checked on the usage row this create moved;
    -- its row lock is held to commit, so two creators cannot both fit in the last slot. A quota
    -- refusal raises, which rolls the insert back.
    CREATE FUNCTION ${s}.create_object(
      p_oid text, p_namespace bytea, p_name bytea, p_type text, p_label text, p_payload bytea,
      p_payload_bytes bigint, p_created_at bytea, p_created_by bytea, p_max_objects bigint, p_max_bytes bigint
    ) RETURNS text LANGUAGE plpgsql AS $fn$
    DECLARE
      found_namespace bigint;
      used_objects bigint;
      used_bytes bigint;
    BEGIN
      SELECT id INTO found_namespace FROM ${s}.namespaces
        WHERE sha256(name) = sha256(p_namespace) AND name = p_namespace AND (lease_expires_at IS NULL OR lease_expires_at >= now());
      IF NOT FOUND THEN RETURN 'namespace_not_found'; END IF;
      INSERT INTO ${s}.objects (oid, namespace_id, name, type, label, payload, payload_bytes, created_at, created_by)
        VALUES (p_oid, found_namespace, p_name, p_type, p_label, p_payload, p_payload_bytes, p_created_at, p_created_by)
        ON CONFLICT (namespace_id, (sha256(name))) DO NOTHING;
      IF NOT FOUND THEN RETURN 'name_taken'; END IF;
      UPDATE ${s}.usage SET objects = objects + 1, bytes = bytes + p_payload_bytes RETURNING objects, bytes INTO used_objects, used_bytes;
      IF (used_objects > p_max_objects OR used_bytes > p_max_bytes)
         AND EXISTS (SELECT 1 FROM ${s}.namespaces WHERE lease_expires_at < now()) THEN
        -- Objects of expired process namespaces are not live: drop them before refusing.
        DELETE FROM ${s}.namespaces WHERE lease_expires_at < now();
        SELECT objects, bytes INTO used_objects, used_bytes FROM ${s}.usage;
      END IF;
      IF used_objects > p_max_objects THEN
        RAISE EXCEPTION 'libOS Object quota exceeded' USING ERRCODE = 'LQ001',
          DETAIL = format('%s %s', used_objects - 1, used_bytes - p_payload_bytes);
      END IF;
      IF used_bytes > p_max_bytes THEN
        RAISE EXCEPTION 'libOS Object quota exceeded' USING ERRCODE = 'LQ002',
          DETAIL = format('%s %s', used_objects - 1, used_bytes - p_payload_bytes);
      END IF;
      RETURN 'created';
    END $fn$;

    -- Declares a namespace, or (with a lease) a process namespace whose lease starts or renews.
    -- An expired namespace of that name is dropped first, so its Objects never come back.
    CREATE FUNCTION ${s}.declare_namespace(p_name bytea, p_lease_ms double precision) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM ${s}.namespaces WHERE sha256(name) = sha256(p_name) AND lease_expires_at < now();
      INSERT INTO ${s}.namespaces AS n (name, lease_expires_at)
        VALUES (p_name, CASE WHEN p_lease_ms IS NULL THEN NULL ELSE now() + make_interval(secs => p_lease_ms / 1000) END)
        ON CONFLICT ((sha256(name))) DO UPDATE SET lease_expires_at = EXCLUDED.lease_expires_at
          WHERE n.lease_expires_at IS NOT NULL AND EXCLUDED.lease_expires_at IS NOT NULL;
    END $fn$;

    -- The uses ledger: a key (policy and grant, made by the runtime) and how many uses are spent.
    CREATE TABLE ${s}.uses (
      key bytea NOT NULL,
      spent bigint NOT NULL CHECK (spent >= 0)
    );
    CREATE UNIQUE INDEX uses_key ON ${s}.uses ((sha256(key)));
  `,
};

// A lease alone let one host sweep the namespaces of another whose event loop had stalled past
// the lease: alive, and its Objects gone. A process namespace now records the key of its store's
// session lock (owner-lock.ts), and "expired" means the lease ran out AND no session holds that
// lock; a namespace declared without a key (by a store of version 1) still goes by its lease.
const v2: Migration = {
  version: 2,
  description: 'a process namespace is swept only when its owner no longer holds its session lock',
  sql: (s) => `
    ALTER TABLE ${s}.namespaces ADD COLUMN owner_key integer;

    CREATE FUNCTION ${s}.owner_alive(p_owner integer) RETURNS boolean LANGUAGE sql STABLE AS $fn$
      SELECT p_owner IS NOT NULL AND EXISTS (
        SELECT 1 FROM pg_catalog.pg_locks l
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
           AND l.database = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = current_database())
           AND l.classid = ${OWNER_LOCK_CLASS}::oid AND l.objid = p_owner::oid)
    $fn$;

    CREATE OR REPLACE FUNCTION ${s}.create_object(
      p_oid text, p_namespace bytea, p_name bytea, p_type text, p_label text, p_payload bytea,
      p_payload_bytes bigint, p_created_at bytea, p_created_by bytea, p_max_objects bigint, p_max_bytes bigint
    ) RETURNS text LANGUAGE plpgsql AS $fn$
    DECLARE
      found_namespace bigint;
      used_objects bigint;
      used_bytes bigint;
    BEGIN
      SELECT id INTO found_namespace FROM ${s}.namespaces
        WHERE sha256(name) = sha256(p_namespace) AND name = p_namespace
          AND (lease_expires_at IS NULL OR lease_expires_at >= now() OR ${s}.owner_alive(owner_key));
      IF NOT FOUND THEN RETURN 'namespace_not_found'; END IF;
      INSERT INTO ${s}.objects (oid, namespace_id, name, type, label, payload, payload_bytes, created_at, created_by)
        VALUES (p_oid, found_namespace, p_name, p_type, p_label, p_payload, p_payload_bytes, p_created_at, p_created_by)
        ON CONFLICT (namespace_id, (sha256(name))) DO NOTHING;
      IF NOT FOUND THEN RETURN 'name_taken'; END IF;
      UPDATE ${s}.usage SET objects = objects + 1, bytes = bytes + p_payload_bytes RETURNING objects, bytes INTO used_objects, used_bytes;
      IF (used_objects > p_max_objects OR used_bytes > p_max_bytes)
         AND EXISTS (SELECT 1 FROM ${s}.namespaces WHERE lease_expires_at < now() AND NOT ${s}.owner_alive(owner_key)) THEN
        -- Objects of expired process namespaces whose owner is gone are not live: drop them before refusing.
        DELETE FROM ${s}.namespaces WHERE lease_expires_at < now() AND NOT ${s}.owner_alive(owner_key);
        SELECT objects, bytes INTO used_objects, used_bytes FROM ${s}.usage;
      END IF;
      IF used_objects > p_max_objects THEN
        RAISE EXCEPTION 'libOS Object quota exceeded' USING ERRCODE = 'LQ001',
          DETAIL = format('%s %s', used_objects - 1, used_bytes - p_payload_bytes);
      END IF;
      IF used_bytes > p_max_bytes THEN
        RAISE EXCEPTION 'libOS Object quota exceeded' USING ERRCODE = 'LQ002',
          DETAIL = format('%s %s', used_objects - 1, used_bytes - p_payload_bytes);
      END IF;
      RETURN 'created';
    END $fn$;

    -- Declares a namespace, or (with a lease) a process namespace whose lease starts or renews,
    -- owned by the store holding the lock p_owner. An expired namespace of that name whose owner
    -- is gone is dropped first, so its Objects never come back.
    CREATE FUNCTION ${s}.declare_namespace(p_name bytea, p_lease_ms double precision, p_owner integer) RETURNS void LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM ${s}.namespaces WHERE sha256(name) = sha256(p_name) AND lease_expires_at < now() AND NOT ${s}.owner_alive(owner_key);
      INSERT INTO ${s}.namespaces AS n (name, lease_expires_at, owner_key)
        VALUES (p_name, CASE WHEN p_lease_ms IS NULL THEN NULL ELSE now() + make_interval(secs => p_lease_ms / 1000) END,
                CASE WHEN p_lease_ms IS NULL THEN NULL ELSE p_owner END)
        ON CONFLICT ((sha256(name))) DO UPDATE SET lease_expires_at = EXCLUDED.lease_expires_at, owner_key = EXCLUDED.owner_key
          WHERE n.lease_expires_at IS NOT NULL AND EXCLUDED.lease_expires_at IS NOT NULL;
    END $fn$;
  `,
};

/** Every migration, in order; a new step is appended, never edited once released. */
export const MIGRATIONS: readonly Migration[] = [v1, v2];
