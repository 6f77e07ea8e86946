import {
  LibosError,
  ROOT_PATH,
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
  type TreeSearchListing,
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
  /** The directory's first `limit` entries in code-point order, each name once, and whether it holds more. */
  list(limit: number): { entries: DirectoryEntry[]; truncated: boolean };
  child(name: string): (DirectoryEntry & Partial<TreeSearchEntry>) | undefined;
  isCandidate(name: string): boolean;
}

/** The nodes of one answer, by directory path. */
interface Nodes {
  get(path: string): Node | undefined;
}

/**
 * The walk's directory handles over one `searchTree` answer: listing and entering cost nothing,
 * and a candidate's read is the bytes the answer carried, or else one read through the provider.
 * Everything the walk decides (grants, ignores, links, bounds) it decides on these handles exactly
 * as on the provider's own, because they list what the provider's listings would: the same entries,
 * in code-point order, cut at the caller's limit.
 */
export function snapshotDirectory(provider: FileSystemProviderV1, root: WorkspacePath, answer: TreeSearchAnswer): SnapshotHandle {
  if (answer.listings !== undefined) {
    const { listings } = answer;
    if (!listings.has(root)) return handleFor(provider, new Map([[root, entryNode([])]]), root);
    // Made as the walk enters each directory: a search answered by listings copies no entry up front.
    return handleFor(provider, lazyNodes(listings), root);
  }
  // Only an entry whose path is its parent's path and its own name counts: the walk checks grants
  // on the path and reads by the name, so the two must never tell different stories.
  const sound = answer.entries.filter((entry) => {
    const parent = parentPath(entry.path);
    return parent !== null && childPath(parent, entry.name) === entry.path;
  });
  const byDirectory = new Map<string, Map<string, TreeSearchEntry>>([[root, new Map()]]);
  for (const entry of sound) {
    if (entry.kind === 'directory' && !byDirectory.has(entry.path)) byDirectory.set(entry.path, new Map());
  }
  for (const entry of sound) {
    // A parent outside the answer's tree is never reached from the root, so its entries never count.
    const parent = byDirectory.get(parentPath(entry.path)!);
    if (parent !== undefined && !parent.has(entry.name)) parent.set(entry.name, entry);
  }
  const nodes = new Map<string, Node>();
  for (const [path, byName] of byDirectory) nodes.set(path, entryNode([...byName.values()]));
  return handleFor(provider, nodes, root);
}

function entryNode(entries: readonly TreeSearchEntry[]): Node {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  let sorted: TreeSearchEntry[] | undefined;
  return {
    list(limit) {
      sorted ??= [...entries].sort((left, right) => compareCodePoints(left.name, right.name));
      // Copies without the answer's own fields: the walk sees what a listing would show.
      const listed = sorted.slice(0, limit).map(({ name, path, kind, sizeBytes, modifiedAt }) => ({ name, path, kind, sizeBytes, modifiedAt }));
      return { entries: listed, truncated: sorted.length > limit };
    },
    child: (name) => byName.get(name),
    isCandidate: (name) => byName.get(name)?.candidate ?? true,
  };
}

// The nodes of an answer by listings, each made when first asked for: its entries kept only when
// sound (path is the directory's path and the name) and each name once, in code-point order.
function lazyNodes(listings: ReadonlyMap<WorkspacePath, TreeSearchListing>): Nodes {
  const made = new Map<string, Node>();
  return {
    get(path: string) {
      let node = made.get(path);
      const listing = listings.get(path as WorkspacePath);
      if (node === undefined && listing !== undefined) {
        node = listingNode(path as WorkspacePath, listing);
        made.set(path, node);
      }
      return node;
    },
  };
}

function listingNode(path: WorkspacePath, listing: TreeSearchListing): Node {
  const prefix = path === ROOT_PATH ? '' : `${path}/`;
  let sorted: readonly DirectoryEntry[] = listing.entries;
  let ordered = true;
  for (let index = 0; index < sorted.length; index++) {
    const entry = sorted[index]!;
    const sound = entry.path.length === prefix.length + entry.name.length && entry.path.startsWith(prefix) && entry.path.endsWith(entry.name);
    if (!sound || (index > 0 && compareCodePoints(sorted[index - 1]!.name, entry.name) >= 0)) {
      ordered = false;
      break;
    }
  }
  if (!ordered) {
    const byName = new Map<string, DirectoryEntry>();
    for (const entry of listing.entries) if (childPath(path, entry.name) === entry.path && !byName.has(entry.name)) byName.set(entry.name, entry);
    sorted = [...byName.values()].sort((left, right) => compareCodePoints(left.name, right.name));
  }
  const child = (name: string) => {
    let low = 0;
    let high = sorted.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compareCodePoints(sorted[middle]!.name, name);
      if (order === 0) return sorted[middle];
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  };
  return {
    list: (limit) => ({ entries: sorted.slice(0, limit), truncated: sorted.length > limit }),
    child,
    // The walk asks only of names this node listed, so a name is a candidate exactly when marked.
    isCandidate: (name) => listing.candidates.has(name),
  };
}

function handleFor(provider: FileSystemProviderV1, nodes: Nodes, path: WorkspacePath): SnapshotHandle {
  const node = nodes.get(path)!;
  const child = (name: string) => node.child(name);
  const readOne = async (name: string, maxBytes: number, signal: AbortSignal | undefined): Promise<FileRead> => {
    const entry = child(name);
    const carried = entry?.read;
    if (carried !== undefined && fitsRead(carried, maxBytes)) return cut(carried, maxBytes);
    return provider.readFile(childPath(path, name), { maxBytes, signal });
  };
  return {
    path,
    list: async (options) => node.list(options.limit),
    async openDirectory(name) {
      const entry = child(name);
      if (entry?.kind !== 'directory' || nodes.get(entry.path) === undefined) throw providerErrors.notFound(childPath(path, name));
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
    isCandidate: (name) => node.isCandidate(name),
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
