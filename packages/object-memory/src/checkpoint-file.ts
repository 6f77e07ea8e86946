import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { LibosError } from '@libos/core';
import { lazyOptionalModule } from '@libos/provider-kit';
import type { MemoryObject } from '@libos/core';
import { decodeCheckpointRows, type CheckpointLimits, type CheckpointObjectRow, type CheckpointRows } from './checkpoint-rows.js';

// Loaded on the first checkpoint or restore: the native addon costs every start ~15 ms otherwise,
// most runtimes (every `libos call`, most MCP sessions) never checkpoint, and an install that never
// checkpoints need not compile it at all: it is an optional peer dependency (docs/objects.md).
const loadSqlite = lazyOptionalModule<typeof Database>('better-sqlite3', import.meta.url, {
  message:
    'Checkpoints need the better-sqlite3 package, which is not installed (or did not build): add it beside @libos/object-memory (npm install better-sqlite3).',
  reason: 'checkpoints_unavailable',
});

/**
 * Loads SQLite now (through the same loader as checkpoints), for a process that will checkpoint: it
 * fails at its start, not after the work when its Objects would be lost. Throws `provider_failure`
 * (reason `checkpoints_unavailable`) when better-sqlite3 is missing or did not build.
 */
export function assertCheckpointsAvailable(): void {
  loadSqlite();
}

function openDatabase(file: string, options?: Database.Options): Database.Database {
  return new (loadSqlite())(file, options);
}

/** Marks the SQLite file as ours ("LbOM"), so a random database is refused on restore. */
export const CHECKPOINT_APPLICATION_ID = 0x4c624f4d;
/** The checkpoint schema version this code writes and reads. */
export const CHECKPOINT_FORMAT_VERSION = 1;

const SCHEMA = `
  CREATE TABLE namespaces (name TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
  CREATE TABLE objects (
    seq INTEGER PRIMARY KEY,
    oid TEXT NOT NULL UNIQUE,
    namespace TEXT NOT NULL REFERENCES namespaces(name),
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    label TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (namespace, name)
  );
`;

/**
 * Writes namespaces and their Objects into a fresh SQLite file beside `file`, in one transaction,
 * flushes it, then renames it over `file`. A crash at any point leaves the previous image whole:
 * the target is only ever replaced by a complete, synced file.
 */
export function writeCheckpointFile(file: string, namespaces: readonly string[], objects: readonly MemoryObject[]): void {
  assertStorableText(namespaces, objects);
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    createPrivateFile(temporary);
    const database = openDatabase(temporary);
    try {
      // Durability comes from the fsync below, before the rename; a journal would only slow the write.
      database.pragma('journal_mode = OFF');
      database.pragma('synchronous = OFF');
      database.pragma(`application_id = ${CHECKPOINT_APPLICATION_ID}`);
      database.pragma(`user_version = ${CHECKPOINT_FORMAT_VERSION}`);
      database.exec(SCHEMA);
      const insertNamespace = database.prepare('INSERT INTO namespaces (name) VALUES (?)');
      const insertObject = database.prepare(
        'INSERT INTO objects (oid, namespace, name, type, label, created_at, created_by, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      database.transaction(() => {
        for (const namespace of namespaces) insertNamespace.run(namespace);
        for (const object of objects) {
          insertObject.run(
            object.oid,
            object.namespace,
            object.name,
            object.type,
            object.label,
            object.created_at,
            object.created_by,
            JSON.stringify(object.payload),
          );
        }
      })();
    } finally {
      database.close();
    }
    syncPath(temporary);
    renameSync(temporary, file);
    syncPath(dirname(file));
  } catch (error) {
    rmSync(temporary, { force: true });
    if (LibosError.is(error)) throw error;
    throw new LibosError('provider_failure', `The checkpoint could not be written: ${describe(error)}.`, {
      effect: 'none',
      cause: error,
    });
  }
}

/**
 * Reads and validates a checkpoint file against the payload gate and the room left under the
 * quotas. Throws `not_found` when it does not exist, `invalid_arguments` when it is not a complete,
 * well-formed checkpoint, and `quota_exceeded` when its Objects do not fit.
 */
export function readCheckpointFile(file: string, limits: CheckpointLimits): CheckpointRows {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    throw new LibosError('not_found', 'The checkpoint file does not exist.', { cause: error });
  }
  if (!isFile) throw malformed('it is not a regular file');
  let database: Database.Database;
  try {
    database = openDatabase(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    if (LibosError.is(error)) throw error;
    throw malformed(describe(error), error);
  }
  try {
    const applicationId = database.pragma('application_id', { simple: true });
    if (applicationId !== CHECKPOINT_APPLICATION_ID) throw malformed('it is not an Object Memory checkpoint');
    const version = database.pragma('user_version', { simple: true });
    if (version !== CHECKPOINT_FORMAT_VERSION) throw malformed(`its format version ${String(version)} is not supported`);
    const check = database.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw malformed(`SQLite reports damage (${String(check)})`);
    const namespaces = database.prepare('SELECT name FROM namespaces ORDER BY name').pluck().all();
    // octet_length reads a value's size from its record header: an oversized payload is measured
    // without being loaded, and rows are decoded one by one, so a forged file cannot make us hold it.
    const objects = database
      .prepare(
        `SELECT oid, namespace, name, type, label, created_at, created_by, octet_length(payload) AS payload_bytes,
           CASE WHEN octet_length(payload) <= ? THEN payload END AS payload
         FROM objects ORDER BY seq`,
      )
      .iterate(limits.maxPayloadBytes) as IterableIterator<CheckpointObjectRow>;
    try {
      return decodeCheckpointRows(namespaces, objects, limits);
    } finally {
      // An open iterator keeps the connection busy, and a busy connection refuses to close: a refusal
      // raised before the rows were read (a bad namespace row) would otherwise leak the handle and
      // surface as SQLite's "connection is busy" instead of the contract error.
      objects.return?.();
    }
  } catch (error) {
    if (LibosError.is(error)) throw error;
    throw malformed(describe(error), error);
  } finally {
    database.close();
  }
}

// SQLite keeps TEXT as UTF-8, where a lone surrogate cannot exist: it would come back as U+FFFD,
// a different name. Payloads are safe, since their JSON writes a lone surrogate as an escape.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Refuses, before anything is written, a namespace or Object field that SQLite would not keep exactly. */
function assertStorableText(namespaces: readonly string[], objects: readonly MemoryObject[]): void {
  const refuse = (what: string, details: Record<string, string>): never => {
    throw new LibosError('invalid_arguments', `The checkpoint cannot keep ${what} exactly: it holds a lone UTF-16 surrogate.`, {
      effect: 'none',
      details,
    });
  };
  for (const namespace of namespaces) if (LONE_SURROGATE.test(namespace)) refuse('a namespace name', { namespace });
  for (const object of objects) {
    if (LONE_SURROGATE.test(object.name)) refuse(`the name of Object ${object.oid}`, { oid: object.oid, namespace: object.namespace });
    if (LONE_SURROGATE.test(object.created_by)) refuse(`the creator of Object ${object.oid}`, { oid: object.oid, namespace: object.namespace });
  }
}

/**
 * A checkpoint can hold `secret` Objects, so its file is the owner's alone (0600), whatever the
 * umask. The image is always a new file renamed over the old one, so a loosened old mode never survives.
 */
function createPrivateFile(path: string): void {
  const descriptor = openSync(path, 'wx', 0o600);
  try {
    fchmodSync(descriptor, 0o600);
  } finally {
    closeSync(descriptor);
  }
}

function syncPath(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function malformed(reason: string, cause?: unknown): LibosError {
  return new LibosError('invalid_arguments', `The checkpoint file is malformed: ${reason}.`, {
    details: { reason },
    ...(cause === undefined ? {} : { cause }),
  });
}

// Node's fs messages carry host paths; their errno code says enough.
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'its directory does not exist';
  if (code === 'EACCES' || code === 'EPERM') return `its directory may not be written (${code})`;
  if (typeof code === 'string' && !code.startsWith('SQLITE')) return code;
  return error instanceof Error ? error.message : String(error);
}
