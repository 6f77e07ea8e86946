import {
  type LibosError,
  ROOT_PATH,
  providerErrors,
  type DirectoryEntry,
  type DirectoryHandle,
  type DirectoryListing,
  type ListDirectoryOptions,
  type PathStatus,
  type ProviderCallOptions,
  type WorkspacePath,
} from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { Mount, MountTable } from './mount-table.js';
import { mountErrors } from './mount-errors.js';
import { rebaseHandle, rebasing } from './rebase-paths.js';

/** What the root needs from the provider around it: its table, its start time and whether it is closed. */
export interface RootContext {
  readonly table: MountTable;
  /** When the mount provider was made: the root's own `modifiedAt`, since nothing is ever written there. */
  readonly createdAt: string;
  /** Throws `provider_failure` (closed) once the provider is closed, naming `path`. */
  checkOpen(path: WorkspacePath): void;
}

/** `stat('.')`: the root is a directory that only the mount provider itself holds. */
export function rootStatus(context: RootContext, options: ProviderCallOptions = {}): PathStatus {
  context.checkOpen(ROOT_PATH);
  checkSignal(options.signal, ROOT_PATH);
  return { kind: 'directory', sizeBytes: null, modifiedAt: context.createdAt };
}

/**
 * `listDirectory('.')`: the first `limit` mount names in code-point order, each a directory. Only
 * the returned mounts are asked for their time (their root's `modifiedAt`); a mount whose root
 * cannot be observed is still listed, with the root's own time, since a listing never fails for
 * one entry.
 */
export async function listRoot(context: RootContext, options: ListDirectoryOptions): Promise<DirectoryListing> {
  context.checkOpen(ROOT_PATH);
  checkSignal(options.signal, ROOT_PATH);
  const shown = context.table.mounts.slice(0, options.limit);
  const entries = await Promise.all(shown.map((mount) => mountEntry(context, mount, options)));
  checkSignal(options.signal, ROOT_PATH);
  return { entries, truncated: context.table.mounts.length > options.limit };
}

async function mountEntry(context: RootContext, mount: Mount, options: ProviderCallOptions): Promise<DirectoryEntry> {
  const status = await mount.provider.stat(ROOT_PATH, options).catch(() => undefined);
  const modifiedAt = status?.kind === 'directory' && status.modifiedAt !== null ? status.modifiedAt : context.createdAt;
  return { name: mount.name, path: mount.name as WorkspacePath, kind: 'directory', sizeBytes: null, modifiedAt };
}

/** Opens a mount's own root as the directory handle of its mount point. */
export async function openMountPoint(mount: Mount, options: ProviderCallOptions = {}): Promise<DirectoryHandle> {
  const open = mount.provider.openDirectory;
  if (open === undefined) throw mountErrors.unsupported(mount.name as WorkspacePath, mount.name, mount.provider.name, 'open directories');
  return rebasing(mount.outer, async () => rebaseHandle(await open.call(mount.provider, ROOT_PATH, options), mount.outer));
}

/** A handle on the root: it lists the mounts, opens a mount point, and holds no file. */
export function rootHandle(context: RootContext): DirectoryHandle {
  let closed = false;
  const checkHandle = (): void => {
    context.checkOpen(ROOT_PATH);
    if (closed) throw providerErrors.closed(ROOT_PATH, 'mount');
  };
  const fileAt = (name: string): LibosError => {
    const mount = context.table.mounts.find((candidate) => candidate.name === name);
    const path = name as WorkspacePath;
    return mount === undefined ? providerErrors.notFound(path) : providerErrors.notAFile(path, 'directory');
  };
  return {
    path: ROOT_PATH,
    async list(options) {
      checkHandle();
      return listRoot(context, options);
    },
    async openDirectory(name, options) {
      checkHandle();
      const mount = context.table.mounts.find((candidate) => candidate.name === name);
      if (mount === undefined) throw providerErrors.notFound(name as WorkspacePath);
      return openMountPoint(mount, options);
    },
    async readFile(name, options) {
      checkHandle();
      checkSignal(options.signal, ROOT_PATH);
      throw fileAt(name);
    },
    async readFiles(names, options) {
      checkHandle();
      checkSignal(options.signal, ROOT_PATH);
      return names.map(fileAt);
    },
    close() {
      closed = true;
    },
  };
}
