// The walk-through of this package's README: a whole provider over a flat key-value store (one key
// per file or directory, keyed by its canonical path, as in an object bucket or a database table),
// written only against the public exports of @libos/core and this kit. It ships with the kit, and
// the kit's own tests run it and one-line mutants of it (test/example-mutants.test.ts).
import { createHash } from 'node:crypto';
import { ROOT_PATH, baseName, checkFileMode, compareCodePoints, isGitAlias, parentPath, pathSegments, providerErrors } from '@libos/core';
import type { DirectoryEntry, FileSystemProviderV1, ProviderCallOptions, WorkspacePath } from '@libos/core';
import { SmallestItems, checkSignal, createCallGate } from '@libos/provider-kit';
// Inside the kit it imports the fixtures type by path; a provider of your own imports it from '@libos/provider-conformance'.
import type { ProviderFixtures } from '../provider-fixtures.js';

/** One value of the store: a file's bytes, or a directory marker; both carry an ISO 8601 UTC time. */
export type StoredEntry =
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly modifiedAt: string }
  | { readonly kind: 'directory'; readonly modifiedAt: string };

/** The flat store: canonical paths (`a/b`, `.` for the root) as keys. */
export type KeyValueStore = Map<string, StoredEntry>;

const now = () => new Date().toISOString();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const status = (entry: StoredEntry) => ({
  kind: entry.kind,
  sizeBytes: entry.kind === 'file' ? entry.bytes.length : null,
  modifiedAt: entry.modifiedAt,
});
const ancestors = (path: WorkspacePath): WorkspacePath[] =>
  pathSegments(path)
    .slice(0, -1)
    .map((_, index, all) => all.slice(0, index + 1).join('/') as WorkspacePath);

/** A provider over `store`, which must hold the root key `.` (a directory); removing that key removes the workspace. */
export function createKeyValueProvider(store: KeyValueStore): FileSystemProviderV1 {
  const gate = createCallGate('key-value');
  // Each method checks and acts in one synchronous block and never waits, so the signal is checked
  // once at the start, and a gone root is refused before anything else.
  const run = <T>(path: WorkspacePath, options: ProviderCallOptions | undefined, body: () => T) =>
    gate.run(path, () => {
      checkSignal(options?.signal, path);
      if (store.get(ROOT_PATH)?.kind !== 'directory') throw providerErrors.rootGone(path);
      return body();
    });
  // The entry at `path` once its ancestors are checked: a file among them is `not_a_directory`
  // naming it, a missing one is `not_found` naming it, or, with `tolerate`, simply no entry.
  const lookup = (path: WorkspacePath, tolerate = false): StoredEntry | undefined => {
    for (const at of ancestors(path)) {
      const entry = store.get(at);
      if (entry?.kind === 'file') throw providerErrors.notADirectory(path, at);
      if (entry === undefined && tolerate) return undefined;
      if (entry === undefined) throw providerErrors.notFound(path, at);
    }
    return store.get(path);
  };
  const makeParents = (path: WorkspacePath) => {
    for (const at of ancestors(path)) if (!store.has(at)) store.set(at, { kind: 'directory', modifiedAt: now() });
  };
  const below = (path: WorkspacePath) => [...store.keys()].filter((key) => key !== ROOT_PATH && (path === ROOT_PATH || key.startsWith(`${path}/`)));
  const fileAt = (path: WorkspacePath) => {
    const entry = lookup(path);
    if (entry === undefined) throw providerErrors.notFound(path);
    if (entry.kind !== 'file') throw providerErrors.notAFile(path, 'directory');
    return entry;
  };
  // A write's target: a missing parent is made later, a file among the ancestors is refused.
  const writable = (path: WorkspacePath) => {
    if (path === ROOT_PATH) throw providerErrors.notAFile(path, 'directory');
    const entry = lookup(path, true);
    if (entry?.kind === 'directory') throw providerErrors.notAFile(path, 'directory');
    return entry;
  };
  return {
    specificationVersion: 'v1',
    name: 'key-value',
    capabilities: { symlinks: false, hardLinks: false, specialFiles: false, atomicReplace: true, exclusiveCreate: true, durableWrites: false },
    stat: (path, options) =>
      run(path, options, () => {
        const entry = lookup(path);
        return entry === undefined ? { kind: 'missing' as const, sizeBytes: null, modifiedAt: null } : status(entry);
      }),
    listDirectory: (path, options) =>
      run(path, options, () => {
        const entry = lookup(path);
        if (entry === undefined) throw providerErrors.notFound(path);
        if (entry.kind !== 'directory') throw providerErrors.notADirectory(path);
        // Memory stays O(limit): only the smallest names are kept, in code-point order.
        const kept = new SmallestItems<string>(options.limit, compareCodePoints);
        for (const key of below(path)) if (parentPath(key as WorkspacePath) === path) kept.offer(key);
        const entries = kept
          .sorted()
          .map((key): DirectoryEntry => ({ name: baseName(key as WorkspacePath), path: key as WorkspacePath, ...status(store.get(key)!) }));
        return { entries, truncated: kept.overflowed };
      }),
    readFile: (path, options) =>
      run(path, options, () => {
        const { bytes } = fileAt(path);
        return { bytes: bytes.slice(0, options.maxBytes), truncated: bytes.length > options.maxBytes };
      }),
    writeFile: (path, bytes, options) =>
      run(path, options, () => {
        // This store keeps no modes (it has no modes fixture): it checks the option and has nothing to set.
        checkFileMode(options.mode, path);
        const entry = writable(path);
        // Existence first: overwrite:false wins over expectedSha256.
        if (entry !== undefined && !options.overwrite) throw providerErrors.alreadyExists(path);
        const expected = options.expectedSha256;
        const actual = entry?.kind === 'file' ? sha256(entry.bytes) : null;
        if (expected === 'missing' && entry !== undefined) throw providerErrors.contentConflict(path, expected, actual);
        if (expected !== undefined && expected !== 'missing' && actual !== expected) throw providerErrors.contentConflict(path, expected, actual);
        makeParents(path);
        store.set(path, { kind: 'file', bytes: bytes.slice(), modifiedAt: now() });
        return { created: entry === undefined };
      }),
    makeDirectory: (path, options) =>
      run(path, options, () => {
        const entry = lookup(path, options.parents);
        if (entry?.kind === 'file') throw providerErrors.notADirectory(path);
        if (entry !== undefined && !options.existOk) throw providerErrors.alreadyExists(path);
        if (entry !== undefined) return { created: false };
        makeParents(path);
        store.set(path, { kind: 'directory', modifiedAt: now() });
        return { created: true };
      }),
    deleteFile: (path, options) =>
      run(path, options, () => {
        if (path === ROOT_PATH) throw providerErrors.notAFile(path, 'directory');
        // missingOk forgives a missing file and a missing ancestor alike: nothing is there to delete.
        if (lookup(path, options.missingOk) === undefined && options.missingOk) return { deleted: false };
        fileAt(path);
        store.delete(path);
        return { deleted: true };
      }),
    deleteDirectory: (path, options) =>
      run(path, options, () => {
        if (path === ROOT_PATH) throw providerErrors.rootRefused(path);
        const entry = lookup(path, options.missingOk);
        if (entry === undefined && options.missingOk) return { deleted: false };
        if (entry === undefined) throw providerErrors.notFound(path);
        if (entry.kind !== 'directory') throw providerErrors.notADirectory(path);
        const inside = below(path);
        if (inside.length > 0 && !options.recursive) throw providerErrors.directoryNotEmpty(path);
        // Refused before anything is deleted, naming the alias entry itself (a key's first alias segment).
        for (const key of inside) {
          const segments = pathSegments(key as WorkspacePath);
          const at = segments.findIndex(isGitAlias);
          if (at >= 0) throw providerErrors.protectedPath(path, segments.slice(0, at + 1).join('/') as WorkspacePath);
        }
        for (const key of [...inside, path]) store.delete(key);
        return { deleted: true };
      }),
    rename: (from, to, options) =>
      run(from, options, () => {
        const source = fileAt(from);
        const target = writable(to);
        if (from === to) return { replaced: false };
        if (target !== undefined && !options.overwrite) throw providerErrors.alreadyExists(to);
        makeParents(to);
        store.set(to, source);
        store.delete(from);
        return { replaced: target !== undefined };
      }),
    close: () => gate.close(),
  };
}

/** A fresh store holding only the root directory. */
export function createKeyValueStore(): KeyValueStore {
  return new Map([[ROOT_PATH, { kind: 'directory', modifiedAt: now() }]]);
}

/** The fixtures a store without links provides: raw writes and observations of the keys, and removing the root. */
export function createKeyValueFixtures(store: KeyValueStore): ProviderFixtures {
  const directories = (path: string) => {
    for (let at = path; at !== '' && at !== '.'; at = at.slice(0, Math.max(0, at.lastIndexOf('/'))))
      if (!store.has(at)) store.set(at, { kind: 'directory', modifiedAt: now() });
  };
  return {
    writeFile: async (path, content) => {
      directories(path.slice(0, Math.max(0, path.lastIndexOf('/'))));
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content.slice();
      store.set(path, { kind: 'file', bytes, modifiedAt: now() });
    },
    makeDirectory: async (path) => directories(path),
    readFile: async (path) => {
      const entry = store.get(path);
      return entry?.kind === 'file' ? entry.bytes.slice() : null;
    },
    kindOf: async (path) => store.get(path)?.kind ?? 'missing',
    removeWorkspace: async () => store.clear(),
  };
}
