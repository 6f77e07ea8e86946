import { createHash } from 'node:crypto';
import { memfs, type IFs } from 'memfs';
import { DEFAULT_MEMFS_ROOT, createMemfsProvider } from './create-memfs-provider.js';
import type { FileSystemProviderV1 } from '@libos/core';
import type { MemfsStats } from './resolve-path.js';

/** Where the fixtures keep the files that escape attempts aim at: on the volume, outside the root. */
export const OUTSIDE_AREA = '/outside';
/** The bytes of every outside file an escape could reach. */
export const OUTSIDE_CONTENT = 'OUTSIDE';

type Kind = 'file' | 'directory' | 'symlink' | 'other' | 'missing';

/**
 * Raw fixtures on a memfs volume for states the provider interface cannot create (links, FIFOs,
 * `.git`) and for observing effects without trusting the provider. It has the shape of the
 * conformance kit's `ProviderFixtures`, kept structural so this package needs no dependency on the kit.
 */
export interface MemfsFixtures {
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  makeDirectory(path: string): Promise<void>;
  symlink(path: string, target: string): Promise<void>;
  hardLink(existingPath: string, newPath: string): Promise<void>;
  fifo(path: string): Promise<void>;
  readFile(path: string): Promise<Uint8Array | null>;
  kindOf(path: string): Promise<Kind>;
  readonly outside: {
    fileTarget(fromDirectory: string): string;
    directoryTarget(fromDirectory: string): string;
    hardLinkFromOutside(path: string): Promise<void>;
    fingerprint(): Promise<string>;
  };
}

/**
 * Makes fixtures for the workspace at `root` on `fs`, and an outside area at `/outside` holding
 * `secret.txt` and `directory/secret.txt` (both `OUTSIDE`). Paths are root-relative and unchecked.
 */
export function createMemfsFixtures(fs: IFs, root: string = DEFAULT_MEMFS_ROOT): MemfsFixtures {
  if (root === '/' || `${root}/`.startsWith(`${OUTSIDE_AREA}/`)) throw new Error('The fixtures need a workspace root beside /outside.');
  const at = (path: string): string => (path === '' || path === '.' ? root : `${root}/${path}`);
  const parentOf = (volumePath: string): string => volumePath.slice(0, volumePath.lastIndexOf('/')) || '/';
  fs.mkdirSync(`${OUTSIDE_AREA}/directory`, { recursive: true });
  fs.writeFileSync(`${OUTSIDE_AREA}/secret.txt`, OUTSIDE_CONTENT);
  fs.writeFileSync(`${OUTSIDE_AREA}/directory/secret.txt`, OUTSIDE_CONTENT);
  let outsideLinks = 0;
  // Relative targets resolve from the link's parent, so climb out of the root and its ancestors.
  const climb = (fromDirectory: string): string => {
    const depth = `${root}/${fromDirectory}`.split('/').filter((segment) => segment !== '' && segment !== '.').length;
    return '../'.repeat(depth);
  };

  return {
    writeFile: async (path, content) => {
      fs.mkdirSync(parentOf(at(path)), { recursive: true });
      fs.writeFileSync(at(path), content);
    },
    makeDirectory: async (path) => {
      fs.mkdirSync(at(path), { recursive: true });
    },
    symlink: async (path, target) => {
      fs.symlinkSync(target, at(path));
    },
    hardLink: async (existingPath, newPath) => {
      fs.linkSync(at(existingPath), at(newPath));
    },
    fifo: async (path) => {
      const { O_CREAT, O_EXCL, O_WRONLY, S_IFIFO } = fs.constants;
      fs.closeSync(fs.openSync(at(path), O_CREAT | O_EXCL | O_WRONLY, S_IFIFO | 0o644));
    },
    readFile: async (path) => {
      const stats = lstatQuietly(fs, at(path));
      return stats?.isFile() === true ? new Uint8Array(fs.readFileSync(at(path)) as Buffer) : null;
    },
    kindOf: async (path) => {
      const stats = lstatQuietly(fs, at(path));
      if (stats === undefined) return 'missing';
      if (stats.isSymbolicLink()) return 'symlink';
      if (stats.isFile()) return 'file';
      return stats.isDirectory() ? 'directory' : 'other';
    },
    outside: {
      fileTarget: (fromDirectory) => `${climb(fromDirectory)}outside/secret.txt`,
      directoryTarget: (fromDirectory) => `${climb(fromDirectory)}outside/directory`,
      hardLinkFromOutside: async (path) => {
        const twin = `${OUTSIDE_AREA}/linked-${outsideLinks++}`;
        if (lstatQuietly(fs, at(path))?.isFile() === true) {
          fs.linkSync(at(path), twin);
          return;
        }
        fs.writeFileSync(twin, OUTSIDE_CONTENT);
        fs.mkdirSync(parentOf(at(path)), { recursive: true });
        fs.linkSync(twin, at(path));
      },
      fingerprint: async () => fingerprintOutside(fs, root),
    },
  };
}

/** A fresh volume with a memfs provider at `/workspace` and fixtures on the same volume. */
export function createMemfsTestbed(): { provider: FileSystemProviderV1; fixtures: MemfsFixtures; volume: IFs } {
  const volume = memfs({}, '/').fs;
  const provider = createMemfsProvider({ volume, root: DEFAULT_MEMFS_ROOT });
  return { provider, fixtures: createMemfsFixtures(volume, DEFAULT_MEMFS_ROOT), volume };
}

/** Digests every name, kind, mode, link target and byte on the volume outside `root`. */
function fingerprintOutside(fs: IFs, root: string): string {
  const hash = createHash('sha256');
  const visit = (directory: string): void => {
    for (const name of (fs.readdirSync(directory) as string[]).slice().sort()) {
      const path = `${directory === '/' ? '' : directory}/${name}`;
      if (path === root) continue;
      const stats = fs.lstatSync(path);
      hash.update(`${path}\0${Number(stats.mode)}\0`);
      if (stats.isSymbolicLink()) hash.update(`link\0${String(fs.readlinkSync(path))}\0`);
      else if (stats.isFile()) hash.update(fs.readFileSync(path) as Buffer).update('\0');
      else if (stats.isDirectory()) visit(path);
    }
  };
  visit('/');
  return hash.digest('hex');
}

function lstatQuietly(fs: IFs, volumePath: string): MemfsStats | undefined {
  try {
    return fs.lstatSync(volumePath, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
