import { childPath, type DirectoryHandle, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';

/**
 * The provider's `openDirectory` when it has one; else the same interface over path calls, each
 * resolved from the root (correct, and what a provider without handles costs anyway). Without
 * handles, opening checks nothing: the `list` that every walk makes next reports what an open
 * would have (not_found, not_a_directory, symlink_refused).
 */
export async function openWalkDirectory(provider: FileSystemProviderV1, path: WorkspacePath, signal: AbortSignal): Promise<DirectoryHandle> {
  if (provider.openDirectory !== undefined) return provider.openDirectory(path, { signal });
  return byPath(provider, path);
}

function byPath(provider: FileSystemProviderV1, path: WorkspacePath): DirectoryHandle {
  return {
    path,
    list: (options) => provider.listDirectory(path, options),
    openDirectory: async (name) => byPath(provider, childPath(path, name)),
    readFile: (name, options) => provider.readFile(childPath(path, name), options),
    close: () => undefined,
  };
}
