import { LibosError, isRootPath, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { readStatePath } from '../state/state-path.js';

/**
 * Why the lower may not be asked to change `path`, a path read back from the state file; null when
 * it may. The state is a file on disk, so its paths are judged again as the agent's were: core's
 * canonical form (`readStatePath`, already passed to make a WorkspacePath), never the root, then
 * the lower's own naming rules (`checkPath`), as if the change were being made now.
 */
export function refusalOf(lower: FileSystemProviderV1, path: WorkspacePath): LibosError | null {
  if (isRootPath(path)) {
    return new LibosError('invalid_path', "The overlay state names '.', which is not a path the workspace may change.", {
      details: { path, reason: 'state_path_refused' },
    });
  }
  try {
    lower.checkPath?.(path, { creates: true });
    return null;
  } catch (error) {
    if (LibosError.is(error)) return error;
    throw error;
  }
}

/** `refusalOf` for a path as stored: its decoding's refusal, or the lower's. */
export function storedRefusalOf(lower: FileSystemProviderV1, stored: string): LibosError | null {
  const path = readStatePath(stored);
  return path instanceof LibosError ? path : refusalOf(lower, path);
}

function guard(lower: FileSystemProviderV1, path: WorkspacePath): void {
  const refusal = storedRefusalOf(lower, path);
  if (refusal !== null) throw refusal;
}

/**
 * The lower as the person's operations (apply, undo, recovery, diff) see it: every path is judged by
 * `refusalOf` before the lower is asked, so a crafted row or journal entry in the state can never
 * reach `.git`, leave the root, or name what the lower reserves; the call fails instead, and
 * nothing is touched there.
 */
export function guardedLower(lower: FileSystemProviderV1): FileSystemProviderV1 {
  const checked = async <T>(paths: readonly WorkspacePath[], call: () => Promise<T>): Promise<T> => {
    for (const path of paths) guard(lower, path);
    return call();
  };
  const guarded: FileSystemProviderV1 = {
    ...lower,
    stat: (path, options) => checked([path], () => lower.stat(path, options)),
    listDirectory: (path, options) => checked([path], () => lower.listDirectory(path, options)),
    readFile: (path, options) => checked([path], () => lower.readFile(path, options)),
    writeFile: (path, bytes, options) => checked([path], () => lower.writeFile(path, bytes, options)),
    makeDirectory: (path, options) => checked([path], () => lower.makeDirectory(path, options)),
    deleteFile: (path, options) => checked([path], () => lower.deleteFile(path, options)),
    deleteDirectory: (path, options) => checked([path], () => lower.deleteDirectory(path, options)),
    close: () => lower.close(),
  };
  const { rename, appendFile, copyFile, readFileRange } = lower;
  if (rename !== undefined) guarded.rename = (from, to, options) => checked([from, to], () => rename.call(lower, from, to, options));
  if (appendFile !== undefined) guarded.appendFile = (path, bytes, options) => checked([path], () => appendFile.call(lower, path, bytes, options));
  if (copyFile !== undefined) guarded.copyFile = (from, to, options) => checked([from, to], () => copyFile.call(lower, from, to, options));
  if (readFileRange !== undefined) guarded.readFileRange = (path, options) => checked([path], () => readFileRange.call(lower, path, options));
  return guarded;
}
