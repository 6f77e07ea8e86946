import { closeSync, existsSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { LibosError } from '@libos/core';
import { lazyOptionalModule } from '@libos/provider-kit';
import type Database from 'better-sqlite3';
import { bindLowerRoot, type StateOpener } from './lower-root-identity.js';

// Loaded when an overlay first opens its state: better-sqlite3 is a native addon, an optional peer
// dependency, so installing a program that merely can use an overlay (the CLI) compiles nothing.
const loadSqlite = lazyOptionalModule<typeof Database>('better-sqlite3', import.meta.url, {
  message:
    'The overlay keeps its state in SQLite: install better-sqlite3 (npm i better-sqlite3) beside @libos/provider-overlay, or run without an overlay.',
  reason: 'sqlite_unavailable',
});

/** The schema, as data: each migration runs once, in order, inside one transaction (docs/overlay.md). */
const migrations: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO meta (key, value) VALUES ('generation', 0), ('history_floor', 0);
   CREATE TABLE entries (
     path TEXT PRIMARY KEY, parent TEXT NOT NULL, name TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('file', 'directory', 'whiteout')),
     opaque INTEGER NOT NULL DEFAULT 1,
     content BLOB, sha256 TEXT, size INTEGER, modified_at TEXT NOT NULL,
     base_kind TEXT NOT NULL CHECK (base_kind IN ('missing', 'file', 'directory')),
     base_sha256 TEXT, base_size INTEGER, base_files INTEGER, manifest_id INTEGER,
     change TEXT CHECK (change IN ('added', 'modified', 'deleted', 'replaced'))
   ) WITHOUT ROWID;
   CREATE INDEX entries_by_parent ON entries (parent, name);
   CREATE INDEX entries_changed ON entries (path) WHERE change IS NOT NULL;
   CREATE INDEX entries_by_change ON entries (change) WHERE change IS NOT NULL;
   CREATE TABLE manifests (manifest_id INTEGER NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, sha256 TEXT, size INTEGER,
     PRIMARY KEY (manifest_id, path)) WITHOUT ROWID;
   CREATE TABLE calls (seq INTEGER PRIMARY KEY AUTOINCREMENT, tool TEXT NOT NULL, paths TEXT NOT NULL, at TEXT NOT NULL);
   CREATE TABLE undo_rows (seq INTEGER NOT NULL, ord INTEGER NOT NULL, path TEXT NOT NULL, image TEXT, content BLOB,
     PRIMARY KEY (seq, ord)) WITHOUT ROWID;
   CREATE TABLE applies (apply_id TEXT PRIMARY KEY, mode TEXT NOT NULL, state TEXT NOT NULL, at TEXT NOT NULL, pid INTEGER NOT NULL);
   CREATE TABLE apply_items (apply_id TEXT NOT NULL, ord INTEGER NOT NULL, path TEXT NOT NULL, state TEXT NOT NULL,
     plan TEXT NOT NULL, new_content BLOB, before_content BLOB, row_image TEXT, row_content BLOB,
     PRIMARY KEY (apply_id, ord)) WITHOUT ROWID;
   CREATE TABLE apply_tree (apply_id TEXT NOT NULL, ord INTEGER NOT NULL, path TEXT NOT NULL, kind TEXT NOT NULL, content BLOB,
     PRIMARY KEY (apply_id, ord, path)) WITHOUT ROWID;`,
  // Whose mode a file carries: a copy or a move keeps its source's (docs/overlay.md, "Modes").
  'ALTER TABLE entries ADD COLUMN mode_of TEXT;',
  // A file's bytes as segments at their offsets, so an append stores what it appends (docs/overlay.md,
  // "Append and copy"); `lower_bytes`: the first bytes are the lower's base file, left on disk;
  // `hash_state`: the SHA-256 state over every byte, which an append carries on.
  `CREATE TABLE segments (path TEXT NOT NULL, start INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (path, start));
   INSERT INTO segments (path, start, bytes) SELECT path, 0, content FROM entries WHERE kind = 'file' AND length(content) > 0;
   UPDATE entries SET content = NULL;
   ALTER TABLE entries ADD COLUMN lower_bytes INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE entries ADD COLUMN hash_state BLOB;`,
  // The directory the state belongs to (docs/overlay.md, "The state"): one row, by identity.
  'CREATE TABLE lower_root (only INTEGER PRIMARY KEY CHECK (only = 1), dev TEXT NOT NULL, ino TEXT NOT NULL, path TEXT NOT NULL);',
  // Text bases by hash, so an apply can merge onto a file the person edited (docs/overlay.md, "Merge").
  'CREATE TABLE texts (sha256 TEXT PRIMARY KEY, bytes BLOB NOT NULL) WITHOUT ROWID;',
  // The lower file a moved file came from, so a person sees a move as a rename (docs/overlay.md, "Renames").
  `ALTER TABLE entries ADD COLUMN moved_from TEXT;
   CREATE INDEX entries_moved_from ON entries (moved_from) WHERE moved_from IS NOT NULL;`,
];

/** The open state: one SQLite database and the generation counter every write transaction bumps. */
export interface StateDatabase {
  readonly db: Database.Database;
  /** The counter of committed overlay changes; a writer whose probe saw another value retries. */
  generation(): number;
  /** Runs `body` as one write transaction (`BEGIN IMMEDIATE`), bumping the generation. */
  write<T>(body: () => T): T;
  close(): void;
}

/**
 * Opens (the agent's server creating it 0600) the state file, or an in-memory state for
 * `':memory:'`. A file inside `lowerRoot` is refused: the agent could then read or write its own
 * review record. A person's command never creates the state it was asked to read: a missing
 * file is `invalid_arguments`, and so is a state bound to another root (`bindLowerRoot`).
 */
export function openStateDatabase(file: string, lowerRoot: string | undefined, opener: StateOpener = 'agent'): StateDatabase {
  if (file !== ':memory:') {
    refuseInsideRoot(file, lowerRoot);
    if (opener === 'person' && !existsSync(file)) {
      throw new LibosError(
        'invalid_arguments',
        "No such state file: a person's command never creates one; check the --overlay path the agent's server was given.",
        {
          details: { reason: 'state_missing' },
        },
      );
    }
  }
  // Loaded first: where SQLite is missing, the start fails with its sentence and leaves no empty state behind.
  const Sqlite = loadSqlite();
  // Created 0600 before SQLite opens it; SQLite gives its -wal and -shm files the same mode.
  if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const db = new Sqlite(file, opener === 'person' ? { fileMustExist: true } : {});
  // WAL lets a person's command read while a server writes; FULL makes each commit durable, which
  // the apply journal needs (a committed "done" must survive a power cut).
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 20000');
  try {
    migrate(db);
    if (file !== ':memory:') db.transaction(() => bindLowerRoot(db, lowerRoot, opener)).immediate();
  } catch (error) {
    db.close();
    throw error;
  }
  const readGeneration = db.prepare<[], { value: number }>("SELECT value FROM meta WHERE key = 'generation'");
  const bump = db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'generation'");
  return {
    db,
    generation: () => readGeneration.get()?.value ?? 0,
    write: <T>(body: () => T): T =>
      db
        .transaction(() => {
          const result = body();
          bump.run();
          return result;
        })
        .immediate(),
    close: () => db.close(),
  };
}

function migrate(db: Database.Database): void {
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    for (let index = version; index < migrations.length; index++) db.exec(migrations[index] as string);
    if (version < migrations.length) db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
}

function refuseInsideRoot(file: string, lowerRoot: string | undefined): void {
  if (lowerRoot === undefined) return;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  const root = real(lowerRoot);
  // The file and its journals, each where it really is: a link (even a dangling one) is followed.
  const located = (name: string, links = 0): string => {
    const absolute = resolve(name);
    // A loop of links ends after 40, as the kernel's own resolution does (ELOOP).
    const target = existsSync(absolute) || links >= 40 ? undefined : linkTarget(absolute);
    if (target !== undefined) return located(resolve(dirname(absolute), target), links + 1);
    return existsSync(absolute) ? real(absolute) : resolve(real(dirname(absolute)), absolute.slice(dirname(absolute).length + 1));
  };
  const within = (where: string): boolean => {
    const inside = relative(root, where);
    return inside === '' || (!inside.startsWith(`..${sep}`) && inside !== '..' && !inside.startsWith(sep));
  };
  if (['', '-wal', '-shm'].some((suffix) => within(located(`${file}${suffix}`)))) {
    throw new LibosError('invalid_arguments', 'The overlay state file must lie outside the workspace it reviews.', {
      details: { reason: 'state_inside_root' },
    });
  }
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
