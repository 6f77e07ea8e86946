import type { SchemaMigration } from '@libos/provider-kit';

/** One step of the schema, applied once per schema and recorded in `schema_migrations`. */
export type Migration = SchemaMigration;

// Keys are SHA-256 hex the runtime derives from a principal and a handle; the store never sees
// either. Idle time is measured with the database's clock, so every host agrees on expiry.
const v1: Migration = {
  version: 1,
  description: 'the processes of stateless callers: key, pid, cwd, last use',
  sql: (s) => `
    CREATE TABLE ${s}.processes (
      key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{64}$'),
      pid text NOT NULL CHECK (pid ~ '^pid_[0-9a-f]{16}$'),
      cwd text NOT NULL,
      last_used_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX processes_last_used_at ON ${s}.processes (last_used_at);
  `,
};

// 2026-07-28 approvals travel with the client as a sealed requestState: the fleet shares the seal's
// key (one row, made by the first host) and which states were used (each id once, across hosts).
const v2: Migration = {
  version: 2,
  description: 'the approvals seal key and the used requestStates',
  sql: (s) => `
    CREATE TABLE ${s}.approval_key (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      key bytea NOT NULL CHECK (octet_length(key) >= 32),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE ${s}.used_request_states (
      id text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX used_request_states_expires_at ON ${s}.used_request_states (expires_at);
  `,
};

/** Every migration, in order; a new step is appended, never edited once released. */
export const MIGRATIONS: readonly Migration[] = [v1, v2];
