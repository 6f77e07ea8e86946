import { LibosError, type DirectoryHandle, type DirectoryListing, type FileRead, type WorkspacePath } from '@libos/core';

/** Maps a canonical path of one tree to the same entry's canonical path in another (a mount's to the workspace's). */
export type PathMapping = (path: WorkspacePath) => WorkspacePath;

// Every `details` key through which a provider error names a path (core's `providerErrors`).
const PATH_DETAILS = ['path', 'missing', 'component', 'link', 'protected'] as const;

/**
 * The same error with every path it names mapped: the path-valued `details` and, in the message,
 * each of those paths where it appears quoted (`'src/a.ts'`, as `providerErrors` writes them), in
 * one pass so that a mapped path is never mapped again. Effect and cause are kept. Anything that is
 * not a LibosError is returned as it is.
 */
export function rebaseError(error: unknown, mapPath: PathMapping): unknown {
  if (!LibosError.is(error) || error.details === undefined) return error;
  const details: Record<string, unknown> = { ...error.details };
  const renamed = new Map<string, string>();
  for (const key of PATH_DETAILS) {
    const value = details[key];
    if (typeof value !== 'string') continue;
    const mapped = mapPath(value as WorkspacePath);
    details[key] = mapped;
    renamed.set(value, mapped);
  }
  if (renamed.size === 0) return error;
  const quoted = [...renamed.keys()].sort((left, right) => right.length - left.length).map((path) => `'${escapeRegExp(path)}'`);
  const message = error.message.replace(new RegExp(quoted.join('|'), 'gu'), (match) => `'${renamed.get(match.slice(1, -1))}'`);
  return new LibosError(error.code, message, { effect: error.effect, details, cause: error.cause });
}

/** Runs `call`, rethrowing its failure with its paths mapped. */
export async function rebasing<T>(mapPath: PathMapping, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw rebaseError(error, mapPath);
  }
}

/** A listing whose entries carry mapped paths. */
export function rebaseListing(listing: DirectoryListing, mapPath: PathMapping): DirectoryListing {
  return { entries: listing.entries.map((entry) => ({ ...entry, path: mapPath(entry.path) })), truncated: listing.truncated };
}

/**
 * A directory handle that reports mapped paths (its own, its entries', its errors') and hands out
 * handles that do the same. Names are one component and pass through unchanged.
 */
export function rebaseHandle(handle: DirectoryHandle, mapPath: PathMapping): DirectoryHandle {
  const { readFiles } = handle;
  const rebased: DirectoryHandle = {
    path: mapPath(handle.path),
    list: (options) => rebasing(mapPath, async () => rebaseListing(await handle.list(options), mapPath)),
    openDirectory: (name, options) => rebasing(mapPath, async () => rebaseHandle(await handle.openDirectory(name, options), mapPath)),
    readFile: (name, options) => rebasing(mapPath, () => handle.readFile(name, options)),
    close: () => handle.close(),
  };
  if (readFiles !== undefined) {
    rebased.readFiles = (names, options) =>
      rebasing(mapPath, async () => {
        const reads = await readFiles.call(handle, names, options);
        return reads.map((read) => (LibosError.is(read) ? (rebaseError(read, mapPath) as LibosError) : (read as FileRead)));
      });
  }
  return rebased;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
