import { LibosError, ROOT_PATH, providerErrors, type FileSystemProviderV1, type ProviderCapabilities, type WorkspacePath } from '@libos/core';
import { createCallGate, defineProvider, type GatedMethodName } from '@libos/provider-kit';
import pg from 'pg';
import { appendFile } from './append-file.js';
import { deleteEntry, makeDirectory, renameFile, writeFile } from './change-queries.js';
import { databaseFailure } from './database-failure.js';
import { deleteTree } from './delete-tree.js';
import { migrate } from './migrate.js';
import { copyFile } from './copy-file.js';
import { createSeededWorkspace } from './create-seeded-workspace.js';
import { checkWorkspaceName, openWorkspace } from './open-workspace.js';
import { readFileRange } from './read-file-range.js';
import { listDirectory, readFile, statPath, type WorkspaceRef } from './read-queries.js';
import { hasTrigramIndex } from './has-trigram-index.js';
import { searchTree } from './search-tree.js';
import { DEFAULT_SCHEMA, quoteSchema } from './schema-name.js';

/** What the workspace may hold in file bytes unless told otherwise: 10 GiB. */
export const DEFAULT_WORKSPACE_MAX_BYTES = 10 * 1024 ** 3;

/** Options of `createPostgresProvider`: a connection string or a pool of your own, not both. */
export interface PostgresProviderOptions {
  /** A libpq-style URL (`postgres://user:password@host:port/db`); the provider makes and ends its own pool. */
  readonly connectionString?: string;
  /** A pool you own: the provider never ends it; give it an `error` listener, as node-postgres asks. */
  readonly pool?: pg.Pool;
  /** The workspace's name: many workspaces share one database and schema. */
  readonly workspace: string;
  /** The schema of the provider's tables, created on first use; default `libos_fs`. */
  readonly schema?: string;
  /** Connections of the provider's own pool; default 10. */
  readonly maxConnections?: number;
  /** The most file bytes the workspace may hold; a write past it is `quota_exceeded`. Default 10 GiB. */
  readonly workspaceMaxBytes?: number;
  /**
   * A host directory copied in, files with their modes, by the start that creates the workspace, in
   * the same transaction: a seed that fails midway leaves no workspace, and the next start seeds it.
   */
  readonly seed?: string;
  /**
   * Only an existing workspace opens (a command that reads, such as `libos export`): a missing one
   * is `not_found`, so a mistyped name creates nothing and is not mistaken for an empty workspace.
   */
  readonly existingOnly?: boolean;
}

/** A provider on PostgreSQL; `open()` connects, migrates and finds (or creates) the workspace. */
export interface PostgresProvider extends FileSystemProviderV1 {
  readonly workspace: string;
  /** Always there: a rename is one statement. */
  rename: NonNullable<FileSystemProviderV1['rename']>;
  /** Always there: an append is one statement that cannot lose a concurrent one. */
  appendFile: NonNullable<FileSystemProviderV1['appendFile']>;
  /** Always there: a copy is one statement, its bytes never leaving the database. */
  copyFile: NonNullable<FileSystemProviderV1['copyFile']>;
  /** Always there: a range is one statement reading only the chunks it covers. */
  readFileRange: NonNullable<FileSystemProviderV1['readFileRange']>;
  /** Always there: a search is one statement, narrowed by the trigram index where the schema has it. */
  searchTree: NonNullable<FileSystemProviderV1['searchTree']>;
  /** Opens the workspace (every method does so on first use); `created` is true for the call that made it. */
  open(): Promise<{ readonly created: boolean }>;
}

/** No links or special files can exist; every change is a transaction, committed durably. */
export const POSTGRES_CAPABILITIES: ProviderCapabilities = Object.freeze({
  symlinks: false,
  hardLinks: false,
  specialFiles: false,
  atomicReplace: true,
  exclusiveCreate: true,
  durableWrites: true,
});

const ROOT = ROOT_PATH;

/** The workspace once open, and whether its schema has the trigram index search narrows with. */
type OpenedRef = WorkspaceRef & { readonly created: boolean; readonly trigramIndex: boolean };

// The operations that only read: whatever failed, nothing was changed.
const READS: ReadonlySet<GatedMethodName> = new Set(['stat', 'listDirectory', 'readFile', 'readFileRange', 'searchTree']);

/**
 * Makes a workspace provider whose tree lives in PostgreSQL (docs/provider-postgres.md): runtimes on
 * many hosts that name the same database, schema and workspace share one tree. Nothing connects
 * until the first call (or `open()`); a failed connection is retried by the next call.
 */
export function createPostgresProvider(options: PostgresProviderOptions): PostgresProvider {
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new LibosError('invalid_arguments', 'Give createPostgresProvider either a connectionString or a pool, not both or neither.');
  }
  const workspace = checkWorkspaceName(options.workspace);
  const schemaName = options.schema ?? DEFAULT_SCHEMA;
  const schema = quoteSchema(schemaName);
  const maxBytes = options.workspaceMaxBytes ?? DEFAULT_WORKSPACE_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new LibosError('invalid_arguments', 'The option workspaceMaxBytes must be a non-negative integer.', {
      details: { option: 'workspaceMaxBytes' },
    });
  }
  const ownPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  // A connection that breaks while idle emits 'error' on the pool; unheard, Node would end the process.
  if (ownPool) pool.on('error', () => undefined);
  const gate = createCallGate('postgres');

  let opening: Promise<OpenedRef> | undefined;
  const open = (path: WorkspacePath): Promise<OpenedRef> => {
    opening ??= (async () => {
      try {
        await migrate(pool, schemaName, schema);
        const opened =
          options.seed === undefined
            ? await openWorkspace(pool, schema, workspace, { create: options.existingOnly !== true })
            : await createSeededWorkspace(pool, schema, workspace, options.seed, maxBytes);
        return { schema, ...opened, trigramIndex: await hasTrigramIndex(pool, schemaName) };
      } catch (error) {
        if (LibosError.is(error, 'not_found')) throw error;
        throw databaseFailure(error, path, 'none');
      }
    })();
    // A failed open is forgotten, so the next call connects again.
    opening.catch(() => {
      opening = undefined;
    });
    return opening;
  };

  // Reads are one statement each: a lost connection changed nothing. A change may have been committing.
  const provider = defineProvider({
    name: 'postgres',
    capabilities: POSTGRES_CAPABILITIES,
    // Declared, so a runtime refuses a config bound this provider would not enforce.
    workspaceMaxBytes: maxBytes,
    gate,
    enter: (path: WorkspacePath) => open(path),
    mapError: (error, path, call) => databaseFailure(error, path, READS.has(call.operation) ? 'none' : 'unknown'),
    operations: {
      stat: (ref, path) => statPath(pool, ref, path),
      listDirectory: (ref, path, listOptions) => listDirectory(pool, ref, path, listOptions.limit),
      readFile: (ref, path, readOptions) => readFile(pool, ref, path, readOptions.maxBytes),
      writeFile: (ref, path, bytes, writeOptions) => writeFile(pool, ref, path, bytes, writeOptions, maxBytes),
      makeDirectory: (ref, path, directoryOptions) => makeDirectory(pool, ref, path, directoryOptions.parents, directoryOptions.existOk),
      deleteFile: (ref, path, deleteOptions) => deleteEntry(pool, ref, path, false, deleteOptions.missingOk),
      deleteDirectory: (ref, path, deleteOptions) =>
        deleteOptions.recursive ? deleteTree(pool, ref, path, deleteOptions) : deleteNonRecursive(pool, ref, path, deleteOptions.missingOk),
      rename: (ref, from, to, renameOptions) => renameFile(pool, ref, from, to, renameOptions.overwrite),
      appendFile: (ref, path, bytes, appendOptions) => appendFile(pool, ref, path, bytes, appendOptions, maxBytes),
      copyFile: (ref, from, to, copyOptions) => copyFile(pool, ref, from, to, copyOptions, maxBytes),
      readFileRange: (ref, path, rangeOptions) => readFileRange(pool, ref, path, rangeOptions),
      searchTree: (ref, path, query) => searchTree(pool, ref, path, query, ref.trigramIndex),
    },
    release: async () => {
      if (ownPool) await pool.end().catch(() => undefined);
    },
  });
  return { ...provider, workspace, open: () => gate.run(ROOT, async () => ({ created: (await open(ROOT)).created })) };
}

function deleteNonRecursive(pool: pg.Pool, ref: WorkspaceRef, path: WorkspacePath, missingOk: boolean): Promise<{ deleted: boolean }> {
  if (path === ROOT) return Promise.reject(providerErrors.rootRefused(path));
  return deleteEntry(pool, ref, path, true, missingOk);
}
