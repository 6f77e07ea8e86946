import {
  LibosError,
  childPath,
  compareCodePoints,
  parentPath,
  providerErrors,
  type DirectoryEntry,
  type DirectoryHandle,
  type FileRead,
  type FileSystemProviderV1,
  type ReadFileOptions,
  type TreeSearchAnswer,
  type TreeSearchEntry,
  type WorkspacePath,
} from '@libos/core';

/** A file the provider said cannot hold the search: the walk counts it searched without reading it. */
export const NOT_A_CANDIDATE: unique symbol = Symbol('not a candidate');

/** A directory handle over a provider's `searchTree` answer, whose reads may say `NOT_A_CANDIDATE`. */
export interface SnapshotHandle extends DirectoryHandle {
  /** Whether the file `name` of this directory may hold the search. */
  isCandidate(name: string): boolean;
}

interface Node {
  readonly byName: Map<string, TreeSearchEntry>;
  sorted: TreeSearchEntry[] | undefined;
}

/**
 * The walk's directory handles over one `searchTree` answer: listing and entering cost nothing,
 * and a candidate's read is the bytes the answer carried, or else one read through the provider.
 * Everything the walk decides (grants, ignores, links, bounds) it decides on these handles exactly
 * as on the provider's own, because they list what the provider's listings would: the same entries,
 * in code-point order, cut at the caller's limit.
 */
export function snapshotDirectory(provider: FileSystemProviderV1, root: WorkspacePath, answer: TreeSearchAnswer): SnapshotHandle {
  const nodes = new Map<string, Node>([[root, { byName: new Map(), sorted: undefined }]]);
  // Only an entry whose path is its parent's path and its own name counts: the walk checks grants
  // on the path and reads by the name, so the two must never tell different stories.
  const sound = answer.entries.filter((entry) => {
    const parent = parentPath(entry.path);
    return parent !== null && childPath(parent, entry.name) === entry.path;
  });
  for (const entry of sound) {
    if (entry.kind === 'directory' && !nodes.has(entry.path)) nodes.set(entry.path, { byName: new Map(), sorted: undefined });
  }
  for (const entry of sound) {
    // A parent outside the answer's tree is never reached from the root, so its entries never count.
    const parent = nodes.get(parentPath(entry.path)!);
    if (parent !== undefined && !parent.byName.has(entry.name)) parent.byName.set(entry.name, entry);
  }
  return handleFor(provider, nodes, root);
}

function handleFor(provider: FileSystemProviderV1, nodes: Map<string, Node>, path: WorkspacePath): SnapshotHandle {
  const node = nodes.get(path)!;
  const children = (): TreeSearchEntry[] => {
    node.sorted ??= [...node.byName.values()].sort((left, right) => compareCodePoints(left.name, right.name));
    return node.sorted;
  };
  const child = (name: string) => node.byName.get(name);
  const readOne = async (name: string, maxBytes: number, signal: AbortSignal | undefined): Promise<FileRead> => {
    const entry = child(name);
    const carried = entry?.read;
    if (carried !== undefined && fitsRead(carried, maxBytes)) return cut(carried, maxBytes);
    return provider.readFile(childPath(path, name), { maxBytes, signal });
  };
  return {
    path,
    async list(options) {
      const all = children();
      const entries: DirectoryEntry[] = all.slice(0, options.limit).map(({ name, path: at, kind, sizeBytes, modifiedAt }) => ({
        name,
        path: at,
        kind,
        sizeBytes,
        modifiedAt,
      }));
      return { entries, truncated: all.length > options.limit };
    },
    async openDirectory(name) {
      const entry = child(name);
      if (entry?.kind !== 'directory' || !nodes.has(entry.path)) throw providerErrors.notFound(childPath(path, name));
      return handleFor(provider, nodes, entry.path);
    },
    readFile: (name, options) => readOne(name, options.maxBytes, options.signal),
    async readFiles(names, options) {
      const reads = names.map((name): FileRead | LibosError | undefined => {
        const carried = child(name)?.read;
        return carried !== undefined && fitsRead(carried, options.maxBytes) ? cut(carried, options.maxBytes) : undefined;
      });
      // Candidates past the carried budget: one batch through the provider's own handle when it
      // reads in batches (each answer is what its readFile would give), else one read each.
      const uncarried = names.filter((_, index) => reads[index] === undefined);
      const batch = uncarried.length > 1 ? await readThroughHandle(provider, path, uncarried, options) : undefined;
      for (let index = 0, next = 0; index < names.length; index++) {
        if (reads[index] !== undefined) continue;
        const read = batch?.[next++];
        if (read !== undefined) {
          reads[index] = read;
          continue;
        }
        try {
          reads[index] = await readOne(names[index]!, options.maxBytes, options.signal);
        } catch (error) {
          if (!LibosError.is(error)) throw error;
          reads[index] = error;
        }
      }
      return reads as (FileRead | LibosError)[];
    },
    isCandidate(name) {
      const entry = child(name);
      return entry === undefined || entry.candidate;
    },
    close: () => undefined,
  };
}

// A carried read answers a smaller request too (its prefix), and a larger one when it holds the whole file.
function fitsRead(read: FileRead, maxBytes: number): boolean {
  return read.bytes.length >= maxBytes || !read.truncated;
}

function cut(read: FileRead, maxBytes: number): FileRead {
  if (read.bytes.length <= maxBytes) return read;
  return { bytes: read.bytes.subarray(0, maxBytes), truncated: true };
}

// The provider's batch read of `names` in the directory `path`; undefined when it has none or the
// directory cannot be opened (each file is then read alone, and meets its own answer).
async function readThroughHandle(
  provider: FileSystemProviderV1,
  path: WorkspacePath,
  names: readonly string[],
  options: ReadFileOptions,
): Promise<readonly (FileRead | LibosError)[] | undefined> {
  if (provider.openDirectory === undefined) return undefined;
  let handle: DirectoryHandle;
  try {
    handle = await provider.openDirectory(path, { signal: options.signal });
  } catch (error) {
    if (LibosError.is(error)) return undefined;
    throw error;
  }
  try {
    return handle.readFiles === undefined ? undefined : await handle.readFiles(names, options);
  } finally {
    handle.close();
  }
}
