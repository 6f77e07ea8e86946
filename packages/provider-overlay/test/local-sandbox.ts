import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProviderFixtures } from '@libos/provider-conformance';

/** A host sandbox: `workspace/` is the lower's root, `outside/` must never change, `state/` holds overlay state files. */
export interface Sandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly stateDirectory: string;
  at(path: string): string;
  remove(): void;
}

export function createSandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'libos-overlay-'));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  const stateDirectory = join(base, 'state');
  mkdirSync(root);
  mkdirSync(stateDirectory);
  mkdirSync(join(outside, 'directory'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
  writeFileSync(join(outside, 'directory', 'secret.txt'), 'OUTSIDE');
  return {
    base,
    root,
    outside,
    stateDirectory,
    at: (path) => (path === '' || path === '.' ? root : join(root, path)),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

function lstatQuietly(hostPath: string) {
  try {
    return lstatSync(hostPath);
  } catch {
    return undefined;
  }
}

/** Names, kinds, modes, link targets and bytes of every entry below `directory` (no times), as comparable text. */
export function treeFingerprint(directory: string, skipTopNames: readonly string[] = []): string {
  const hash = createHash('sha256');
  const visit = (host: string, relative: string): void => {
    for (const name of readdirSync(host).sort()) {
      if (relative === '' && skipTopNames.includes(name)) continue;
      const path = join(host, name);
      const status = lstatSync(path);
      hash.update(`${relative}/${name}\0${status.mode}\0`);
      if (status.isSymbolicLink()) hash.update(`link\0${readlinkSync(path)}\0`);
      else if (status.isFile()) hash.update(readFileSync(path)).update('\0');
      else if (status.isDirectory()) visit(path, `${relative}/${name}`);
    }
  };
  visit(directory, '');
  return hash.digest('hex');
}

/** Raw fixtures on the sandbox's workspace, for the lower under an overlay. */
export function createLocalFixtures(sandbox: Sandbox): ProviderFixtures {
  const { at } = sandbox;
  let outsideLinks = 0;
  const climb = (fromDirectory: string): string =>
    '../'.repeat(fromDirectory.split('/').filter((segment) => segment !== '' && segment !== '.').length + 1);
  return {
    writeFile: async (path, content) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), content);
    },
    makeDirectory: async (path) => void mkdirSync(at(path), { recursive: true }),
    symlink: async (path, target) => symlinkSync(target, at(path)),
    hardLink: async (existingPath, newPath) => linkSync(at(existingPath), at(newPath)),
    fifo: async (path) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      execFileSync('mkfifo', [at(path)]);
    },
    readFile: async (path) => {
      const status = lstatQuietly(at(path));
      return status?.isFile() === true ? new Uint8Array(readFileSync(at(path))) : null;
    },
    kindOf: async (path) => {
      const status = lstatQuietly(at(path));
      if (status === undefined) return 'missing';
      if (status.isSymbolicLink()) return 'symlink';
      if (status.isFile()) return 'file';
      return status.isDirectory() ? 'directory' : 'other';
    },
    removeWorkspace: async () => rmSync(sandbox.root, { recursive: true, force: true }),
    modes: {
      get: async (path) => lstatSync(at(path)).mode & 0o7777,
      set: async (path, mode) => chmodSync(at(path), mode),
    },
    outside: {
      fileTarget: (fromDirectory) => `${climb(fromDirectory)}outside/secret.txt`,
      directoryTarget: (fromDirectory) => `${climb(fromDirectory)}outside/directory`,
      hardLinkFromOutside: async (path) => {
        const twin = join(sandbox.outside, `linked-${outsideLinks++}`);
        if (lstatQuietly(at(path))?.isFile() === true) {
          linkSync(at(path), twin);
          return;
        }
        writeFileSync(twin, 'OUTSIDE');
        mkdirSync(dirname(at(path)), { recursive: true });
        linkSync(twin, at(path));
      },
      fingerprint: async () => treeFingerprint(sandbox.outside),
    },
  };
}
