import { ROOT_PATH, checkFileMode, providerErrors, type FileSystemProviderV1, type ProviderCapabilities, type WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { copyBetweenMounts } from './copy-between-mounts.js';
import { mountErrors } from './mount-errors.js';
import { createMountTable, type Location, type Mount } from './mount-table.js';
import { rebaseError, rebaseHandle, rebaseListing, rebasing } from './rebase-paths.js';
import { listRoot, rootHandle, rootStatus, type RootContext } from './root-view.js';

/** Options of `createMountProvider`. */
export interface MountProviderOptions {
  /**
   * The most bytes a copy between two mounts carries (it holds the file in memory); a larger file
   * is `too_large` and nothing is written. Default 67108864 (64 MiB). A copy inside one mount is the
   * mounted provider's own and has no such bound.
   */
  readonly crossMountCopyMaxBytes?: number;
}

/** A provider serving other providers at top-level names; `mountNames` lists them in code-point order. */
export interface MountProvider extends FileSystemProviderV1 {
  readonly mountNames: readonly string[];
}

const DEFAULT_CROSS_MOUNT_COPY_MAX_BYTES = 67_108_864;

/**
 * Serves each provider of `mounts` at its name: `web/lib/app.js` is `lib/app.js` of `mounts.web`.
 * The root lists the mounts as directories and holds nothing else. Every call inside one mount is
 * that provider's own, its paths mapped, so its rules (links, `.git`, special files, staging names)
 * hold unchanged; a copy between mounts reads through one and writes through the other; a move
 * between mounts is refused (docs/mounts.md). Throws `invalid_arguments` for a bad or repeated
 * mount name, or one provider mounted twice. `close` closes every mount.
 */
export function createMountProvider(mounts: Readonly<Record<string, FileSystemProviderV1>>, options: MountProviderOptions = {}): MountProvider {
  const table = createMountTable(mounts);
  const names = table.mounts.map((mount) => mount.name);
  const copyMaxBytes = options.crossMountCopyMaxBytes ?? DEFAULT_CROSS_MOUNT_COPY_MAX_BYTES;
  let closed = false;
  const root: RootContext = {
    table,
    createdAt: new Date().toISOString(),
    checkOpen(path) {
      if (closed) throw providerErrors.closed(path, 'mount');
    },
  };
  // A call the mount provider answers itself, above every mount: closed first, then the signal.
  const above = (path: WorkspacePath, signal: AbortSignal | undefined): void => {
    root.checkOpen(path);
    checkSignal(signal, path);
  };
  const notFoundAbove = (path: WorkspacePath, location: Location & { at: 'unmounted' }) => providerErrors.notFound(path, location.name);
  const refuseCreate = (path: WorkspacePath, location: Location & { at: 'unmounted' }) => mountErrors.rootHoldsOnlyMounts(path, location.name, names);

  // Two paths not in one mount: the refusals that need no probe, the wrong kind first (the contract's
  // order of refusals), else the two files, each inside its mount.
  const between = (from: WorkspacePath, to: WorkspacePath, source: Location, target: Location, signal: AbortSignal | undefined) => {
    above(from, signal);
    if (source.at === 'root' || (source.at === 'mount' && source.inner === ROOT_PATH)) throw providerErrors.notAFile(from, 'directory');
    if (source.at === 'unmounted') throw notFoundAbove(from, source);
    if (target.at === 'root' || (target.at === 'mount' && target.inner === ROOT_PATH)) throw providerErrors.notAFile(to, 'directory');
    if (target.at === 'unmounted') throw refuseCreate(to, target);
    return { source, target };
  };
  const unsupported = (path: WorkspacePath, mount: Mount, signal: AbortSignal | undefined, what: string) => {
    above(path, signal);
    return mountErrors.unsupported(path, mount.name, mount.provider.name, what);
  };

  const provider: MountProvider = {
    specificationVersion: 'v1',
    name: 'mount',
    mountNames: names,
    capabilities: capabilitiesOf(table.mounts),
    async stat(path, callOptions) {
      const location = table.locate(path);
      if (location.at === 'root') return rootStatus(root, callOptions);
      if (location.at === 'unmounted') {
        above(path, callOptions?.signal);
        return { kind: 'missing', sizeBytes: null, modifiedAt: null };
      }
      return rebasing(location.mount.outer, () => location.mount.provider.stat(location.inner, callOptions));
    },
    async listDirectory(path, callOptions) {
      const location = table.locate(path);
      if (location.at === 'root') return listRoot(root, callOptions);
      above(path, callOptions.signal);
      if (location.at === 'unmounted') throw notFoundAbove(path, location);
      const { mount, inner } = location;
      return rebasing(mount.outer, async () => rebaseListing(await mount.provider.listDirectory(inner, callOptions), mount.outer));
    },
    async readFile(path, callOptions) {
      const location = table.locate(path);
      above(path, callOptions.signal);
      if (location.at === 'root') throw providerErrors.notAFile(path, 'directory');
      if (location.at === 'unmounted') throw notFoundAbove(path, location);
      return rebasing(location.mount.outer, () => location.mount.provider.readFile(location.inner, callOptions));
    },
    async writeFile(path, bytes, callOptions) {
      const location = table.locate(path);
      if (location.at === 'mount') return rebasing(location.mount.outer, () => location.mount.provider.writeFile(location.inner, bytes, callOptions));
      checkFileMode(callOptions.mode, path);
      above(path, callOptions.signal);
      throw location.at === 'root' ? providerErrors.notAFile(path, 'directory') : refuseCreate(path, location);
    },
    async makeDirectory(path, callOptions) {
      const location = table.locate(path);
      if (location.at === 'mount') return rebasing(location.mount.outer, () => location.mount.provider.makeDirectory(location.inner, callOptions));
      above(path, callOptions.signal);
      if (location.at === 'unmounted') throw refuseCreate(path, location);
      if (!callOptions.existOk) throw providerErrors.alreadyExists(path);
      return { created: false };
    },
    async deleteFile(path, callOptions) {
      const location = table.locate(path);
      if (location.at === 'mount') return rebasing(location.mount.outer, () => location.mount.provider.deleteFile(location.inner, callOptions));
      above(path, callOptions.signal);
      if (location.at === 'root') throw providerErrors.notAFile(path, 'directory');
      if (!callOptions.missingOk) throw notFoundAbove(path, location);
      return { deleted: false };
    },
    async deleteDirectory(path, callOptions) {
      const location = table.locate(path);
      // A mount point is refused here, whatever its provider would do with its own root: a
      // recursive delete starts inside one mount and so never reaches another.
      if (location.at === 'mount' && location.inner !== ROOT_PATH) {
        return rebasing(location.mount.outer, () => location.mount.provider.deleteDirectory(location.inner, callOptions));
      }
      above(path, callOptions.signal);
      if (location.at === 'root') throw providerErrors.rootRefused(path);
      if (location.at === 'mount') throw mountErrors.mountPoint(path);
      if (!callOptions.missingOk) throw notFoundAbove(path, location);
      return { deleted: false };
    },
    async rename(from, to, callOptions) {
      const source = table.locate(from);
      const target = table.locate(to);
      if (source.at === 'mount' && target.at === 'mount' && source.mount === target.mount) {
        const { mount } = source;
        const rename = mount.provider.rename;
        if (rename === undefined) throw unsupported(from, mount, callOptions.signal, 'move files');
        return rebasing(mount.outer, () => rename.call(mount.provider, source.inner, target.inner, callOptions));
      }
      const sides = between(from, to, source, target, callOptions.signal);
      throw mountErrors.crossMount(from, to, sides.source.mount.name, sides.target.mount.name);
    },
    async copyFile(from, to, callOptions) {
      const source = table.locate(from);
      const target = table.locate(to);
      if (source.at === 'mount' && target.at === 'mount' && source.mount === target.mount) {
        const { mount } = source;
        const copy = mount.provider.copyFile;
        if (copy === undefined) throw unsupported(from, mount, callOptions.signal, 'copy files');
        return rebasing(mount.outer, () => copy.call(mount.provider, source.inner, target.inner, callOptions));
      }
      const sides = between(from, to, source, target, callOptions.signal);
      return copyBetweenMounts(sides.source, sides.target, callOptions, copyMaxBytes);
    },
    async appendFile(path, bytes, callOptions) {
      const location = table.locate(path);
      if (location.at === 'mount') {
        const { mount, inner } = location;
        const append = mount.provider.appendFile;
        if (append === undefined) throw unsupported(path, mount, callOptions.signal, 'append to files');
        return rebasing(mount.outer, () => append.call(mount.provider, inner, bytes, callOptions));
      }
      above(path, callOptions.signal);
      if (location.at === 'root') throw providerErrors.notAFile(path, 'directory');
      throw callOptions.create ? refuseCreate(path, location) : notFoundAbove(path, location);
    },
    checkPath(path, checkOptions) {
      const location = table.locate(path);
      if (checkOptions.removes === true && location.at === 'root') throw providerErrors.rootRefused(path);
      if (checkOptions.removes === true && location.at === 'mount' && location.inner === ROOT_PATH) throw mountErrors.mountPoint(path);
      if (location.at === 'root') return;
      if (location.at === 'unmounted') throw checkOptions.creates ? refuseCreate(path, location) : notFoundAbove(path, location);
      const { mount, inner } = location;
      try {
        mount.provider.checkPath?.(inner, checkOptions);
      } catch (error) {
        throw rebaseError(error, mount.outer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      const results = await Promise.allSettled(table.mounts.map((mount) => mount.provider.close()));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
  addOptionalMethods(provider, table.mounts, root, above);
  return provider;
}

// Methods the tools do without (reading prefixes only, walking by path): offered only when every
// mount can serve them, so no mount is ever asked for what it lacks. `hostPath` is never offered:
// the root is no host directory, and a layer above (the overlay) asks for the root's.
function addOptionalMethods(
  provider: MountProvider,
  mounts: readonly Mount[],
  root: RootContext,
  above: (path: WorkspacePath, signal: AbortSignal | undefined) => void,
): void {
  const { table } = root;
  if (mounts.every((mount) => mount.provider.readFileRange !== undefined)) {
    provider.readFileRange = async (path, callOptions) => {
      const location = table.locate(path);
      above(path, callOptions.signal);
      if (location.at === 'root') throw providerErrors.notAFile(path, 'directory');
      if (location.at === 'unmounted') throw providerErrors.notFound(path, location.name);
      const { mount, inner } = location;
      return rebasing(mount.outer, () => mount.provider.readFileRange!.call(mount.provider, inner, callOptions));
    };
  }
  if (mounts.every((mount) => mount.provider.openDirectory !== undefined)) {
    provider.openDirectory = async (path, callOptions) => {
      const location = table.locate(path);
      above(path, callOptions?.signal);
      if (location.at === 'root') return rootHandle(root);
      if (location.at === 'unmounted') throw providerErrors.notFound(path, location.name);
      const { mount, inner } = location;
      return rebasing(mount.outer, async () =>
        rebaseHandle(await mount.provider.openDirectory!.call(mount.provider, inner, callOptions), mount.outer),
      );
    };
  }
}

// What the workspace may hold is what any mount may hold; what it guarantees is what every mount does.
function capabilitiesOf(mounts: readonly Mount[]): ProviderCapabilities {
  const any = (name: keyof ProviderCapabilities) => mounts.some((mount) => mount.provider.capabilities[name]);
  const all = (name: keyof ProviderCapabilities) => mounts.every((mount) => mount.provider.capabilities[name]);
  return {
    symlinks: any('symlinks'),
    hardLinks: any('hardLinks'),
    specialFiles: any('specialFiles'),
    atomicReplace: all('atomicReplace'),
    exclusiveCreate: all('exclusiveCreate'),
    durableWrites: all('durableWrites'),
  };
}
