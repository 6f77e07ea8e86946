import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Approver, Bounds, LibosConfig } from '@libos/core';
import { createRuntime, loadConfig } from '@libos/tools';
import { UsageError } from '../usage-error.js';
import { refuseFilesInRoots } from './refuse-files-in-roots.js';
import type { WorkspaceRuntime } from './runtime-shape.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** A composed runtime plus what the apps need around it. */
export interface OpenWorkspace {
  readonly runtime: WorkspaceRuntime;
  readonly bounds: Bounds;
  /** Checkpoints the shared namespaces to `--objects` (when given), then closes the runtime. */
  close(): Promise<void>;
}

/**
 * Composes provider, config, approver and restored Objects into one runtime. Anything wrong with
 * the start-up inputs (root, seed, config, checkpoint) is a UsageError.
 */
export async function openWorkspace(options: WorkspaceOptions, approver?: Approver): Promise<OpenWorkspace> {
  const config = options.configFile === undefined ? undefined : await readConfig(options.configFile);
  const provider = await createProvider(options).catch((error: unknown) => {
    if (error instanceof UsageError) throw error;
    const flag = options.provider === 'memfs' ? `--seed ${options.seed ?? ''}` : `--root ${options.root}`;
    throw new UsageError(`libos: ${flag}: ${messageOf(error)}`);
  });
  // The checkpoint is written at exit: a place it can never go is refused now, not after the work.
  if (options.objectsFile !== undefined) await expectDirectory('--objects', dirname(resolve(options.objectsFile)));
  // Nor may it sit where the agent reads and writes (a seed is copied into the served volume too).
  const served = options.provider === 'local' ? [options.root] : options.seed === undefined ? [] : [options.seed];
  await refuseFilesInRoots(options.objectsFile === undefined ? [] : [{ flag: '--objects', path: options.objectsFile }], served).catch(
    async (error: unknown) => {
      await provider.close();
      throw error;
    },
  );
  const restore = options.objectsFile !== undefined && (await isPresent(options.objectsFile)) ? options.objectsFile : undefined;
  const objectStore = options.objectsUrl === undefined ? undefined : await openObjectStore(options.objectsUrl);
  let runtime: WorkspaceRuntime;
  try {
    runtime = await createRuntime({
      provider,
      ...(config === undefined ? {} : { config }),
      ...(approver === undefined ? {} : { approver }),
      ...(restore === undefined ? {} : { restore }),
      ...(objectStore === undefined ? {} : { objectStore }),
    });
  } catch (error) {
    await objectStore?.close();
    if (restore === undefined) throw error;
    throw new UsageError(`libos: --objects ${restore}: cannot restore Objects: ${messageOf(error)}`);
  }
  const shared = (await runtime.objects.listNamespaces()).filter((namespace) => !namespace.startsWith('process:'));
  if (options.objectsFile !== undefined && shared.length === 0) {
    process.stderr.write('libos: --objects keeps shared namespaces only, and the config declares none\n');
  }
  let closed = false;
  return {
    runtime,
    bounds: runtime.bounds,
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (options.objectsFile !== undefined) {
          const file = options.objectsFile;
          await saveObjects(runtime, file).catch((error: unknown) => {
            throw new Error(`--objects ${file}: cannot save Objects: ${messageOf(error)}`, { cause: error });
          });
        }
      } finally {
        await runtime.close();
      }
    },
  };
}

/**
 * Keeps every namespace but the per-process ones: a `process:` namespace dies with its session,
 * since no later process can reach it. Restored namespaces the config no longer declares are
 * kept too, so that editing the config never silently drops Objects.
 */
async function saveObjects(runtime: WorkspaceRuntime, file: string): Promise<void> {
  const namespaces = (await runtime.objects.listNamespaces()).filter((namespace) => !namespace.startsWith('process:'));
  await runtime.checkpoint(file, { namespaces });
}

// Loaded only for a postgres:// --objects, like the providers below.
async function openObjectStore(url: string) {
  const { createPostgresObjectStore } = await import('@libos/object-store-postgres');
  try {
    return await createPostgresObjectStore({ connectionString: url });
  } catch (error) {
    throw new UsageError(`libos: --objects ${withoutPassword(url)}: cannot open the Object store: ${messageOf(error)}`);
  }
}

/** The URL as it may be shown: a password is never printed. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

async function readConfig(file: string): Promise<LibosConfig> {
  try {
    return await loadConfig(file);
  } catch (error) {
    // loadConfig's messages already name the file and the first bad field.
    throw new UsageError(`libos: ${messageOf(error)}`);
  }
}

// Only the chosen provider is loaded: start-up time is mostly module loading.
async function createProvider(options: WorkspaceOptions) {
  if (options.provider === 'memfs') {
    const { createMemfsProvider } = await import('@libos/provider-memfs');
    if (options.seed === undefined) return createMemfsProvider();
    await expectDirectory('--seed', options.seed);
    return createMemfsProvider({ seed: options.seed });
  }
  await expectDirectory('--root', options.root);
  const { createLocalProvider } = await import('@libos/provider-local');
  return createLocalProvider({ root: options.root, borrowWorkingDirectory: options.borrowWorkingDirectory === true });
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
