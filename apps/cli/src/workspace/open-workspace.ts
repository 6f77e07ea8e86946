import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DEFAULT_BOUNDS, type Approver, type Bounds, type FileSystemProviderV1, type LibosConfig, type OpenedProvider } from '@libos/core';
import { withReadOnlyMounts } from '@libos/provider-mount';
import { assertCheckpointsAvailable, createRuntime, loadConfig, type Runtime } from '@libos/tools';
import { UsageError } from '../usage-error.js';
import { BACKEND_REGISTRY } from './backend-registry.js';
import { auditPrivateFiles, openAuditLog } from './audit-options.js';
import { type CleanupStack, createCleanupStack } from './cleanup-stack.js';
import { openMounts } from './mount-options.js';
import { refuseFilesInRoots } from './refuse-files-in-roots.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** What `createRuntime` takes as `objectStore`. */
type ObjectStore = NonNullable<Parameters<typeof createRuntime>[0]['objectStore']>;

/** A composed runtime plus what the apps need around it. */
export interface OpenWorkspace {
  readonly runtime: Runtime;
  readonly bounds: Bounds;
  /** What is served, for the start-up line (escaped for display). */
  readonly served: string;
  /** Host directories the agent reaches: files kept for the person must lie outside them. */
  readonly hostDirectories: readonly string[];
  /** Checkpoints the shared namespaces to `--objects` (when given), then closes the runtime. */
  close(): Promise<void>;
}

/**
 * Composes provider, config, approver and restored Objects into one runtime. Anything wrong with
 * the start-up inputs (root, seed, config, checkpoint) is a UsageError.
 */
export async function openWorkspace(options: WorkspaceOptions, approver?: Approver): Promise<OpenWorkspace> {
  const configured = options.configFile === undefined ? undefined : await readConfig(options.configFile);
  // A read-only mount is a deny grant on its tree, decided before any approval or probe (docs/mounts.md).
  const config = options.readOnly === undefined ? configured : withReadOnlyMounts(configured, options.readOnly);
  // Everything taken from here on is released through this one stack, newest first: by close(),
  // or at once when a later step fails.
  const resources = createCleanupStack();
  try {
    const lower = await openProvider(options, config?.bounds);
    // The overlay (SQLite state, a WebAssembly hasher) loads only for --overlay: most starts never use it.
    const opened =
      options.overlayFile === undefined ? lower : (await (await import('./overlay-workspace.js')).overlayOver(lower, options.overlayFile)).opened;
    resources.defer(() => opened.close?.());
    // The checkpoint is written at exit: a place it can never go is refused now, not after the work.
    if (options.objectsFile !== undefined) {
      await expectDirectory('--objects', dirname(resolve(options.objectsFile)));
      // And SQLite, which writes it, loads now: without it the agent's Objects would be lost at exit.
      checkpointsAvailable(options.objectsFile);
    }
    // Nor may it, the audit log or its signing key, sit where the agent reads and writes (a seed is copied in too).
    const privateFiles = [
      ...(options.objectsFile === undefined ? [] : [{ flag: '--objects', path: options.objectsFile }]),
      ...auditPrivateFiles(options.audit),
      ...(options.indexDirectory === undefined ? [] : [{ flag: '--index', path: options.indexDirectory }]),
      ...(options.approvalsDirectory === undefined ? [] : [{ flag: '--approvals', path: options.approvalsDirectory }]),
    ];
    await refuseFilesInRoots(privateFiles, opened.hostDirectories);
    const provider = options.indexDirectory === undefined ? opened.provider : await indexed(opened.provider, options.indexDirectory, resources);
    const restore = options.objectsFile !== undefined && (await isPresent(options.objectsFile)) ? options.objectsFile : undefined;
    const objectStore = await openObjectStore(options.objectsUrl);
    let runtime: Runtime | undefined;
    // Once the runtime holds the store, the runtime closes it.
    if (objectStore !== undefined) resources.defer(() => (runtime === undefined ? objectStore.close() : undefined));
    const audit = await openAuditLog(options);
    if (audit !== undefined) resources.defer(() => audit.close());
    try {
      runtime = await createRuntime({
        provider,
        ...(audit === undefined ? {} : { audit }),
        ...(config === undefined ? {} : { config }),
        ...(approver === undefined ? {} : { approver }),
        ...(restore === undefined ? {} : { restore }),
        ...(objectStore === undefined ? {} : { objectStore }),
      });
    } catch (error) {
      if (restore === undefined) throw error;
      throw new UsageError(`libos: --objects ${restore}: cannot restore Objects: ${messageOf(error)}`);
    }
    const running = runtime;
    resources.defer(() => running.close());
    const shared = (await running.objects.listNamespaces()).filter((namespace) => !namespace.startsWith('process:'));
    if (options.objectsFile !== undefined && shared.length === 0) {
      process.stderr.write('libos: --objects keeps shared namespaces only, and the config declares none\n');
    }
    let closed = false;
    return {
      runtime: running,
      bounds: running.bounds,
      served: opened.served,
      hostDirectories: opened.hostDirectories,
      async close() {
        if (closed) return;
        closed = true;
        try {
          if (options.objectsFile !== undefined) {
            const file = options.objectsFile;
            await saveObjects(running, file).catch((error: unknown) => {
              throw new Error(`--objects ${file}: cannot save Objects: ${messageOf(error)}`, { cause: error });
            });
          }
        } finally {
          await resources.disposeAsync();
        }
      },
    };
  } catch (error) {
    // The failure that stopped the opening is what the person reads; what the unwinding met is not.
    await resources.disposeAsync().catch(() => undefined);
    throw error;
  }
}

/**
 * `--index DIR`: searches answered from a trigram index in DIR (loaded only then). Only a workspace
 * on a host disk: the index watches the host for changes made by anyone else, and a provider with
 * no host directory (PostgreSQL) could be written behind it unseen.
 */
async function indexed(provider: FileSystemProviderV1, directory: string, resources: CleanupStack): Promise<FileSystemProviderV1> {
  if (provider.hostPath === undefined)
    throw new UsageError('libos: --index needs a workspace served from one host directory (--root, without --mount or --overlay)');
  const { withSearchIndex } = await import('@libos/search-index');
  const index = withSearchIndex(provider, { directory });
  // Saved before the provider closes (the stack runs newest first).
  resources.defer(() => index.close());
  return index.provider;
}

/**
 * Keeps every namespace but the per-process ones: a `process:` namespace dies with its session,
 * since no later process can reach it. Restored namespaces the config no longer declares are
 * kept too, so that editing the config never silently drops Objects.
 */
async function saveObjects(runtime: Runtime, file: string): Promise<void> {
  const namespaces = (await runtime.objects.listNamespaces()).filter((namespace) => !namespace.startsWith('process:'));
  await runtime.checkpoint(file, { namespaces });
}

/** `--objects URL`: the Object store backend of its scheme (loaded only then). */
async function openObjectStore(url: string | undefined): Promise<ObjectStore | undefined> {
  if (url === undefined) return undefined;
  const backend = BACKEND_REGISTRY.objectStoreFor(url);
  if (backend === undefined) throw new UsageError(`libos: --objects: no Object store opens ${url.split(':')[0]}: URLs`);
  try {
    return (await backend.open(url)) as ObjectStore;
  } catch (error) {
    throw new UsageError(`libos: ${messageOf(error)}`);
  }
}

export async function readConfig(file: string): Promise<LibosConfig> {
  try {
    return await loadConfig(file);
  } catch (error) {
    // loadConfig's messages already name the file and the first bad field.
    throw new UsageError(`libos: ${messageOf(error)}`);
  }
}

/**
 * The chosen backend's provider, under the config's bounds (a workspace the backend stores itself
 * honours `workspace_max_bytes`); a value it refuses is a UsageError naming the flag.
 */
export async function openProvider(
  options: WorkspaceOptions,
  bounds: Bounds = DEFAULT_BOUNDS,
  { existingOnly = false }: { readonly existingOnly?: boolean } = {},
): Promise<OpenedProvider> {
  const backend = BACKEND_REGISTRY.provider(options.provider);
  if (backend === undefined) throw new UsageError(`libos: --provider: no provider backend is named '${options.provider}'`);
  try {
    if (options.mounts !== undefined) {
      return await openMounts({ ...options, mounts: options.mounts }, backend, {
        flags: options.backendFlags ?? {},
        borrowWorkingDirectory: options.borrowWorkingDirectory === true,
        bounds,
        ...(existingOnly ? { existingOnly } : {}),
      });
    }
    return await backend.open({
      // Absolute, so nothing (libuv's threads included) resolves it against a borrowed working directory.
      ...(backend.servesRoot ? { root: resolve(options.root) } : {}),
      flags: options.backendFlags ?? {},
      borrowWorkingDirectory: options.borrowWorkingDirectory === true,
      bounds,
      ...(existingOnly ? { existingOnly } : {}),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`libos: ${messageOf(error)}`);
  }
}

async function expectDirectory(flag: string, directory: string): Promise<void> {
  // Absolute, so the stat (on libuv's threads) never resolves against a borrowed working directory.
  const status = await stat(resolve(directory)).catch(() => undefined);
  if (status === undefined) throw new UsageError(`libos: ${flag}: no such directory: ${directory}`);
  if (!status.isDirectory()) throw new UsageError(`libos: ${flag}: not a directory: ${directory}`);
}

async function isPresent(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!;
}

/** `--objects FILE` needs SQLite: refused at the start, in one sentence, like --overlay and --audit without it. */
function checkpointsAvailable(file: string): void {
  try {
    assertCheckpointsAvailable();
  } catch (error) {
    throw new UsageError(`libos: --objects ${file}: ${messageOf(error)}`);
  }
}
