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
import type { FileSystemProviderV1 } from '@libos/core';
import type { ProviderFixtures } from '@libos/provider-conformance';
import { createLocalProvider } from '@libos/provider-local';
import { DEFAULT_MEMFS_ROOT, createMemfsProvider } from '@libos/provider-memfs';
import { createMemfsFixtures } from '@libos/provider-memfs/testing';
import { memfs } from 'memfs';

/** One provider to mount, with raw fixtures on its store and a digest of everything that store holds. */
export interface Backing {
  readonly provider: FileSystemProviderV1;
  readonly fixtures: ProviderFixtures;
  /** Where the workspace lives in the store; no message may name it. */
  readonly hostRoot: string;
  /** A digest of every name, mode and byte in the store, inside the workspace and out. */
  wholeFingerprint(): string;
  remove(): void;
}

/** A memfs volume of its own, with the fixtures `@libos/provider-memfs/testing` makes, plus modes. */
export function memfsBacking(): Backing {
  const { fs, vol } = memfs({}, '/');
  const at = (path: string): string => (path === '.' || path === '' ? DEFAULT_MEMFS_ROOT : `${DEFAULT_MEMFS_ROOT}/${path}`);
  const provider = createMemfsProvider({ volume: fs, root: DEFAULT_MEMFS_ROOT });
  const fixtures: ProviderFixtures = {
    ...createMemfsFixtures(fs, DEFAULT_MEMFS_ROOT),
    modes: {
      get: async (path) => Number(fs.lstatSync(at(path)).mode) & 0o7777,
      set: async (path, mode) => fs.chmodSync(at(path), mode),
    },
    removeWorkspace: async () => fs.rmSync(at('.'), { recursive: true, force: true }),
  };
  return {
    provider,
    fixtures,
    hostRoot: DEFAULT_MEMFS_ROOT,
    wholeFingerprint: () => sha256(JSON.stringify(vol.toJSON())),
    remove: () => undefined,
  };
}

/** A host sandbox: `workspace/` served by the local provider, `outside/` that must never change. */
export function localBacking(): Backing {
  const base = mkdtempSync(join(tmpdir(), 'libos-mount-'));
  const root = join(base, 'workspace');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(join(outside, 'directory'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
  writeFileSync(join(outside, 'directory', 'secret.txt'), 'OUTSIDE');
  const at = (path: string): string => (path === '.' || path === '' ? root : join(root, path));
  // Relative link targets resolve from the link's directory: climb out of it and out of the root.
  const climb = (fromDirectory: string): string => '../'.repeat(fromDirectory.split('/').filter((part) => part !== '' && part !== '.').length + 1);
  let twins = 0;
  const fixtures: ProviderFixtures = {
    writeFile: async (path, content) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      writeFileSync(at(path), content);
    },
    makeDirectory: async (path) => void mkdirSync(at(path), { recursive: true }),
    symlink: async (path, target) => symlinkSync(target, at(path)),
    hardLink: async (existing, path) => linkSync(at(existing), at(path)),
    fifo: async (path) => {
      mkdirSync(dirname(at(path)), { recursive: true });
      execFileSync('mkfifo', [at(path)]);
    },
    readFile: async (path) => (statQuietly(at(path))?.isFile() === true ? new Uint8Array(readFileSync(at(path))) : null),
    kindOf: async (path) => {
      const status = statQuietly(at(path));
      if (status === undefined) return 'missing';
      if (status.isSymbolicLink()) return 'symlink';
      return status.isFile() ? 'file' : status.isDirectory() ? 'directory' : 'other';
    },
    modes: { get: async (path) => lstatSync(at(path)).mode & 0o7777, set: async (path, mode) => chmodSync(at(path), mode) },
    removeWorkspace: async () => rmSync(root, { recursive: true, force: true }),
    outside: {
      fileTarget: (from) => `${climb(from)}outside/secret.txt`,
      directoryTarget: (from) => `${climb(from)}outside/directory`,
      hardLinkFromOutside: async (path) => {
        const twin = join(outside, `linked-${twins++}`);
        if (statQuietly(at(path))?.isFile() === true) return linkSync(at(path), twin);
        writeFileSync(twin, 'OUTSIDE');
        mkdirSync(dirname(at(path)), { recursive: true });
        linkSync(twin, at(path));
      },
      fingerprint: async () => treeFingerprint(outside),
    },
  };
  return {
    provider: createLocalProvider({ root }),
    fixtures,
    hostRoot: root,
    wholeFingerprint: () => treeFingerprint(base),
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

function statQuietly(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

// Names, kinds, modes, link targets and bytes (no times: a listing may touch an access time).
function treeFingerprint(directory: string): string {
  const lines: string[] = [];
  const visit = (host: string, relative: string): void => {
    for (const name of readdirSync(host).sort()) {
      const path = join(host, name);
      const status = lstatSync(path);
      if (status.isSymbolicLink()) lines.push(`${relative}/${name} ${status.mode} -> ${readlinkSync(path)}`);
      else if (status.isFile()) lines.push(`${relative}/${name} ${status.mode} ${sha256(readFileSync(path))}`);
      else lines.push(`${relative}/${name} ${status.mode}`);
      if (status.isDirectory()) visit(path, `${relative}/${name}`);
    }
  };
  visit(directory, '');
  return sha256(lines.join('\n'));
}

function sha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
