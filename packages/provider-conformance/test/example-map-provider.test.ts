// The example of README.md: a provider over a plain Map, written only against public exports.
import { createHash } from 'node:crypto';
import { ROOT_PATH, SmallestItems, baseName, checkSignal, compareCodePoints, createCallGate } from '@libos/core';
import { isGitAlias, parentPath, pathSegments, providerErrors } from '@libos/core';
import type { DirectoryEntry, FileSystemProviderV1, ProviderCallOptions, WorkspacePath } from '@libos/core';
import { type ProviderFixtures, describeProvider } from '@libos/provider-conformance';

type Entry =
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly modifiedAt: string }
  | { readonly kind: 'directory'; readonly modifiedAt: string };
const now = () => new Date().toISOString();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const describe = (entry: Entry) => ({ kind: entry.kind, sizeBytes: entry.kind === 'file' ? entry.bytes.length : null, modifiedAt: entry.modifiedAt });
/** Keys are canonical paths (`a/b`); the root `.` is always a directory. */
export function createMapProvider(store: Map<string, Entry>): FileSystemProviderV1 {
  store.set(ROOT_PATH, { kind: 'directory', modifiedAt: now() });
  const gate = createCallGate('map');
  // Each method runs in one synchronous block and never waits, so the signal is checked at the start.
  const run = <T>(path: WorkspacePath, options: ProviderCallOptions | undefined, body: () => T) =>
    gate.run(path, () => (checkSignal(options?.signal, path), body()));
  // The entry at `path` after checking its ancestors: a file among them is `not_a_directory`; a
  // missing one is `not_found`, or undefined with 'skip', or fine with 'create' (made later).
  const lookup = (path: WorkspacePath, missingParent: 'fail' | 'skip' | 'create' = 'fail'): Entry | undefined => {
    const segments = pathSegments(path);
    for (let index = 1; index < segments.length; index++) {
      const at = segments.slice(0, index).join('/') as WorkspacePath;
      const entry = store.get(at);
      if (entry?.kind === 'file') throw providerErrors.notADirectory(path, at);
      if (entry === undefined && missingParent === 'fail') throw providerErrors.notFound(path, at);
      if (entry === undefined && missingParent === 'skip') return undefined;
    }
    return store.get(path);
  };
  const makeParents = (path: WorkspacePath) => {
    for (let parent = parentPath(path); parent !== null && !store.has(parent); parent = parentPath(parent))
      store.set(parent, { kind: 'directory', modifiedAt: now() });
  };
  const below = (path: WorkspacePath) => [...store.keys()].filter((key) => key !== ROOT_PATH && (path === ROOT_PATH || key.startsWith(`${path}/`)));
  const fileAt = (path: WorkspacePath) => {
    const entry = lookup(path);
    if (entry === undefined) throw providerErrors.notFound(path);
    if (entry.kind !== 'file') throw providerErrors.notAFile(path, 'directory');
    return entry;
  };
  return {
    specificationVersion: 'v1',
    name: 'map',
    capabilities: { symlinks: false, hardLinks: false, specialFiles: false, atomicReplace: true, exclusiveCreate: true, durableWrites: false },
    stat: (path, options) =>
      run(path, options, () => {
        const entry = lookup(path);
        return entry === undefined ? { kind: 'missing' as const, sizeBytes: null, modifiedAt: null } : describe(entry);
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
          .map((key): DirectoryEntry => ({ name: baseName(key as WorkspacePath), path: key as WorkspacePath, ...describe(store.get(key)!) }));
        return { entries, truncated: kept.overflowed };
      }),
    readFile: (path, options) =>
      run(path, options, () => {
        const { bytes } = fileAt(path);
        return { bytes: bytes.slice(0, options.maxBytes), truncated: bytes.length > options.maxBytes };
      }),
    writeFile: (path, bytes, options) =>
      run(path, options, () => {
        if (path === ROOT_PATH) throw providerErrors.notAFile(path, 'directory');
        const entry = lookup(path, 'create');
        if (entry?.kind === 'directory') throw providerErrors.notAFile(path, 'directory');
        // Existence first: overwrite:false wins over expectedSha256.
        if (entry !== undefined && !options.overwrite) throw providerErrors.alreadyExists(path);
        const expected = options.expectedSha256;
        if (expected === 'missing' && entry !== undefined) throw providerErrors.contentConflict(path, expected);
        if (expected !== undefined && expected !== 'missing' && (entry === undefined || sha256(entry.bytes) !== expected)) {
          throw providerErrors.contentConflict(path, expected, entry === undefined ? null : sha256(entry.bytes));
        }
        makeParents(path);
        store.set(path, { kind: 'file', bytes: bytes.slice(), modifiedAt: now() });
        return { created: entry === undefined };
      }),
    makeDirectory: (path, options) =>
      run(path, options, () => {
        const entry = lookup(path, options.parents ? 'create' : 'fail');
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
        const entry = lookup(path, options.missingOk ? 'skip' : 'fail');
        if (entry === undefined && options.missingOk) return { deleted: false };
        fileAt(path);
        store.delete(path);
        return { deleted: true };
      }),
    deleteDirectory: (path, options) =>
      run(path, options, () => {
        if (path === ROOT_PATH) throw providerErrors.rootRefused(path);
        const entry = lookup(path, options.missingOk ? 'skip' : 'fail');
        if (entry === undefined && options.missingOk) return { deleted: false };
        if (entry === undefined) throw providerErrors.notFound(path);
        if (entry.kind !== 'directory') throw providerErrors.notADirectory(path);
        const inside = below(path);
        if (inside.length > 0 && !options.recursive) throw providerErrors.directoryNotEmpty(path);
        // Refused before anything is deleted: a .git alias at any depth.
        const git = inside.find((key) => pathSegments(key as WorkspacePath).some(isGitAlias));
        if (git !== undefined) throw providerErrors.protectedPath(path, git as WorkspacePath);
        for (const key of [...inside, path]) store.delete(key);
        return { deleted: true };
      }),
    close: () => gate.close(),
  };
}

/** The four fixtures a backend without links provides: raw writes and observations of the Map. */
export function createMapFixtures(store: Map<string, Entry>): ProviderFixtures {
  const directories = (path: string) => {
    for (let at = path; at !== '' && at !== '.'; at = at.slice(0, Math.max(0, at.lastIndexOf('/'))))
      if (!store.has(at)) store.set(at, { kind: 'directory', modifiedAt: now() });
  };
  return {
    writeFile: async (path, content) => {
      directories(path.slice(0, Math.max(0, path.lastIndexOf('/'))));
      store.set(path, { kind: 'file', bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content.slice(), modifiedAt: now() });
    },
    makeDirectory: async (path) => directories(path),
    readFile: async (path) => {
      const entry = store.get(path);
      return entry?.kind === 'file' ? entry.bytes.slice() : null;
    },
    kindOf: async (path) => store.get(path)?.kind ?? 'missing',
  };
}

describeProvider('map (the README example)', () => {
  const store = new Map<string, Entry>();
  return { provider: createMapProvider(store), fixtures: createMapFixtures(store) };
});
