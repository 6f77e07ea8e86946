import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, lstatSync, linkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileSystemProviderV1 } from '@libos/core';
import { afterEach } from 'vitest';
import { createLocalProvider } from '../src/index.js';
import { createLocalProviderWithHooks, type LocalProviderTestingHooks } from '../src/testing.js';

/** The bytes every outside file holds; an escape would bring them back. */
export const OUTSIDE_CONTENT = 'OUTSIDE';

type Kind = 'file' | 'directory' | 'symlink' | 'other' | 'missing';

/** A fresh host sandbox: `workspace/` is the root, `outside/` its sibling that must never change. */
export interface Sandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  /** Host path of a root-relative path (test setup only). */
  at(path: string): string;
  remove(): void;
}

export function createSandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'libos-local-'));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(join(outside, 'directory'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), OUTSIDE_CONTENT);
  writeFileSync(join(outside, 'directory', 'secret.txt'), OUTSIDE_CONTENT);
  return {
    base,
    root,
    outside,
    at: (path) => (path === '' || path === '.' ? root : join(root, path)),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Raw host fixtures in the conformance kit's `ProviderFixtures` shape (kept structural). */
export function createLocalFixtures(sandbox: Sandbox) {
  const { at } = sandbox;
  let outsideLinks = 0;
  // Relative targets resolve from the link's directory: climb out of it and out of the root.
  const climb = (fromDirectory: string): string =>
    '../'.repeat(fromDirectory.split('/').filter((segment) => segment !== '' && segment !== '.').length + 1);
  return {
    writeFile: async (path: string, content: string | Uint8Array) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), content);
    },
    makeDirectory: async (path: string) => {
      mkdirSync(at(path), { recursive: true });
    },
    symlink: async (path: string, target: string) => {
      symlinkSync(target, at(path));
    },
    hardLink: async (existingPath: string, newPath: string) => {
      linkSync(at(existingPath), at(newPath));
    },
    fifo: async (path: string) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      execFileSync('mkfifo', [at(path)]);
    },
    readFile: async (path: string): Promise<Uint8Array | null> => {
      const status = lstatQuietly(at(path));
      return status?.isFile() === true ? new Uint8Array(readFileSync(at(path))) : null;
    },
    kindOf: async (path: string): Promise<Kind> => kindAt(at(path)),
    removeWorkspace: async () => rmSync(sandbox.root, { recursive: true, force: true }),
    modes: {
      get: async (path: string) => lstatSync(at(path)).mode & 0o7777,
      set: async (path: string, mode: number) => {
        const { chmodSync } = await import('node:fs');
        chmodSync(at(path), mode);
      },
    },
    outside: {
      fileTarget: (fromDirectory: string) => `${climb(fromDirectory)}outside/secret.txt`,
      directoryTarget: (fromDirectory: string) => `${climb(fromDirectory)}outside/directory`,
      hardLinkFromOutside: async (path: string) => {
        const twin = join(sandbox.outside, `linked-${outsideLinks++}`);
        if (lstatQuietly(at(path))?.isFile() === true) {
          linkSync(at(path), twin);
          return;
        }
        writeFileSync(twin, OUTSIDE_CONTENT);
        mkdirSync(dirname(at(path)), { recursive: true });
        linkSync(twin, at(path));
      },
      fingerprint: async () => fingerprintTree(sandbox.outside),
    },
  };
}

/** A provider over a fresh sandbox, with its fixtures. */
export function createLocalTestbed(
  hooks?: LocalProviderTestingHooks,
  options: { readonly borrowWorkingDirectory?: boolean } = {},
): {
  sandbox: Sandbox;
  provider: FileSystemProviderV1;
  fixtures: ReturnType<typeof createLocalFixtures>;
} {
  const sandbox = createSandbox();
  const providerOptions = { root: sandbox.root, ...options };
  const provider = hooks === undefined ? createLocalProvider(providerOptions) : createLocalProviderWithHooks(providerOptions, hooks);
  return { sandbox, provider, fixtures: createLocalFixtures(sandbox) };
}

/** Digests every name, kind, mode, link target, mtime and byte below `directory`. */
export function fingerprintTree(directory: string): string {
  const hash = createHash('sha256');
  const visit = (host: string, relative: string): void => {
    for (const name of readdirSync(host).sort()) {
      const path = join(host, name);
      const status = lstatSync(path, { bigint: true });
      hash.update(`${relative}/${name}\0${status.mode}\0`);
      if (status.isSymbolicLink()) hash.update(`link\0${readlinkSync(path)}\0`);
      else if (status.isFile()) hash.update(`${status.mtimeNs}\0`).update(readFileSync(path)).update('\0');
      else if (status.isDirectory()) visit(path, `${relative}/${name}`);
    }
  };
  visit(directory, '');
  return hash.digest('hex');
}

export function kindAt(hostPath: string): Kind {
  const status = lstatQuietly(hostPath);
  if (status === undefined) return 'missing';
  if (status.isSymbolicLink()) return 'symlink';
  if (status.isFile()) return 'file';
  return status.isDirectory() ? 'directory' : 'other';
}

function lstatQuietly(hostPath: string) {
  try {
    return lstatSync(hostPath);
  } catch {
    return undefined;
  }
}

/**
 * Registers, in the calling test file, cleanup after each test of every testbed passed to the
 * returned function: its provider closed, its sandbox removed.
 */
export function trackTestbeds(): <Bed extends { sandbox: Sandbox; provider: FileSystemProviderV1 }>(bed: Bed) => Bed {
  const beds: Array<{ sandbox: Sandbox; provider: FileSystemProviderV1 }> = [];
  afterEach(async () => {
    for (const { sandbox, provider } of beds.splice(0)) {
      await provider.close();
      sandbox.remove();
    }
  });
  return (bed) => {
    beds.push(bed);
    return bed;
  };
}

/** The provider's staging directory at the root, where every write stages its temporary. */
export const STAGING = '.libos-staging';

/**
 * What a staging directory holds besides the sockets of its registered writers (a provider that is
 * open keeps one there): temporaries and locks, which a finished call never leaves behind.
 */
export function stagedEntries(staging: string): string[] {
  return readdirSync(staging)
    .filter((name) => !/^writer-[0-9a-f]{16}\.sock$/.test(name))
    .sort();
}

/** The temporaries in a staging directory (`<writer id>.<n>.<random>`), sorted. */
export function stagedTemporaries(staging: string): string[] {
  return readdirSync(staging)
    .filter((name) => /^[0-9a-f]{16}\./.test(name))
    .sort();
}

/**
 * Names in a host directory as `readdirSync` gives them, leaving out the root's staging directory
 * while it holds nothing but writers' sockets: a temporary left behind still shows, as the
 * directory or inside it.
 */
export function hostNames(directory: string, options: { recursive?: boolean } = {}): string[] {
  const staging = join(directory, STAGING);
  const emptyStaging = lstatQuietly(staging)?.isDirectory() === true && stagedEntries(staging).length === 0;
  const names = readdirSync(directory, { recursive: options.recursive ?? false, encoding: 'utf8' });
  return names.filter((name) => !(emptyStaging && (name === STAGING || name.startsWith(`${STAGING}/`)))).sort();
}
