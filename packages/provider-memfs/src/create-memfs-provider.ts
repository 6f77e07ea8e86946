import { LibosError, ROOT_PATH, type FileSystemProviderV1, type ProviderCapabilities } from '@libos/core';
import { defineProvider } from '@libos/provider-kit';
import { memfs, type IFs } from 'memfs';
import { appendFile } from './append-file.js';
import { copyFile } from './copy-file.js';
import { deleteDirectory } from './delete-directory.js';
import { deleteFile } from './delete-file.js';
import { renameFile } from './rename-file.js';
import { listDirectory, statPath } from './list-directory.js';
import { mapMemfsError } from './map-memfs-error.js';
import { NEW_DIRECTORY_MODE, makeDirectory } from './make-directory.js';
import { readFile } from './read-file.js';
import { readFileRange } from './read-file-range.js';
import { searchTree } from './search-tree.js';
import type { Workspace } from './resolve-path.js';
import { seedVolume } from './seed-volume.js';
import { writeFile } from './write-file.js';

/** Where the workspace lives on a fresh volume; the rest of the volume is outside it. */
export const DEFAULT_MEMFS_ROOT = '/workspace';

/** Options of `createMemfsProvider`. */
export interface MemfsProviderOptions {
  /** A host directory copied into the fresh volume (links, hard links, special files, modes, mtimes). */
  readonly seed?: string;
  /**
   * An existing memfs volume to run on, for tests that prepare states the provider cannot create.
   * With `seed` too, the seed is copied into this volume, where `root` must not exist yet.
   */
  readonly volume?: IFs;
  /** The absolute volume directory that is the workspace root (default `/workspace`), created if missing. */
  readonly root?: string;
}

/** What the memfs provider holds and guarantees: everything but durability, since memory is the storage. */
export const MEMFS_CAPABILITIES: ProviderCapabilities = Object.freeze({
  symlinks: true,
  hardLinks: true,
  // Seeding and the `volume` option can bring FIFOs, sockets and devices in as inert nodes.
  specialFiles: true,
  atomicReplace: true,
  exclusiveCreate: true,
  durableWrites: false,
});

/**
 * Makes a workspace provider over a memfs volume. Each method walks, checks and acts in one
 * synchronous block, which memfs (plain JavaScript on one thread) makes race-free.
 */
export function createMemfsProvider(options: MemfsProviderOptions = {}): FileSystemProviderV1 {
  const root = checkRoot(options.root ?? DEFAULT_MEMFS_ROOT);
  // cwd "/": a relative path must never resolve against the host's working directory.
  const fs = options.volume ?? memfs({}, '/').fs;
  if (options.seed !== undefined) seedVolume(fs, options.seed, root);
  else ensureRoot(fs, root);
  const workspace: Workspace = { fs, root };

  // Every operation acts in one synchronous block and never waits, so the kit's signal check at the
  // start is the only one; the operations map memfs's errors themselves, naming what they were doing.
  return defineProvider({
    name: 'memfs',
    capabilities: MEMFS_CAPABILITIES,
    enter: () => workspace,
    // memfs keeps no name for itself: every canonical path is the caller's.
    checkPath: () => undefined,
    operations: {
      stat: (open, path) => statPath(open, path),
      listDirectory: (open, path, listOptions) => listDirectory(open, path, listOptions),
      readFile: (open, path, readOptions) => readFile(open, path, readOptions),
      writeFile: (open, path, bytes, writeOptions) => writeFile(open, path, bytes, writeOptions),
      makeDirectory: (open, path, directoryOptions) => makeDirectory(open, path, directoryOptions),
      deleteFile: (open, path, deleteOptions) => deleteFile(open, path, deleteOptions),
      deleteDirectory: (open, path, deleteOptions) => deleteDirectory(open, path, deleteOptions),
      rename: (open, from, to, renameOptions) => renameFile(open, from, to, renameOptions),
      appendFile: (open, path, bytes, appendOptions) => appendFile(open, path, bytes, appendOptions),
      copyFile: (open, from, to, copyOptions) => copyFile(open, from, to, copyOptions),
      readFileRange: (open, path, rangeOptions) => readFileRange(open, path, rangeOptions),
      searchTree: (open, path, query) => searchTree(open, path, query),
    },
  });
}

function checkRoot(root: string): string {
  const segments = root.split('/').slice(1);
  const canonical = root === '/' || (root.startsWith('/') && segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..'));
  if (!canonical) {
    throw new LibosError('invalid_arguments', 'The memfs root must be an absolute volume path without empty, "." or ".." segments.');
  }
  return root;
}

/** Makes the root and its ancestors with plain mkdirs, refusing a link or a file on the way. */
function ensureRoot(fs: IFs, root: string): void {
  let current = '';
  for (const segment of root
    .split('/')
    .slice(1)
    .filter((part) => part !== '')) {
    current = `${current}/${segment}`;
    try {
      const stats = fs.lstatSync(current, { throwIfNoEntry: false });
      if (stats === undefined) fs.mkdirSync(current, { mode: NEW_DIRECTORY_MODE });
      else if (!stats.isDirectory()) throw new LibosError('invalid_arguments', 'The memfs root passes through something that is not a directory.');
    } catch (error) {
      throw mapMemfsError(error, ROOT_PATH, 'create');
    }
  }
}
