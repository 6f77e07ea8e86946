import { childPath, isGitAlias, pathSegments, providerErrors } from '@libos/core';
import type { DirectoryHandle, ProviderCallOptions, WorkspacePath } from '@libos/core';
import { listHeldDirectory } from './list-directory.js';
import type { OperationContext } from './operation-context.js';
import { readFileIn } from './read-file.js';
import { readFilesIn } from './read-files.js';
import { isReservedName, refuseReserved } from './reserved-names.js';
import { type HeldDirectory, holdDirectory, openChildDirectory, walk } from './walk.js';

/** Runs one host step of a handle as a call of the provider (its gate, its error mapping). */
export type RunStep = <T>(
  operation: string,
  path: WorkspacePath,
  options: ProviderCallOptions | undefined,
  body: (context: OperationContext) => T | Promise<T>,
) => Promise<T>;

/**
 * The handles of one provider: each pins its directory by an O_PATH fd, reached by the same walk
 * as every path (no link, no mount point), and resolves each child name relative to that fd, so a
 * tree walk opens each directory once. A concurrent swap of a child for a link or a mount is
 * refused as it is for a path; a rename of the held directory itself changes nothing for the
 * handle, as it changes nothing for a walk already past it. Open handles are counted so the
 * provider's `close` releases every fd still held.
 */
export function createDirectoryHandles(run: RunStep, providerName: string) {
  const open = new Set<HeldDirectory>();

  function handleOf(held: HeldDirectory): DirectoryHandle {
    open.add(held);
    const path = held.path;
    const live =
      (name: string, options: ProviderCallOptions | undefined, operation: string) =>
      <T>(body: (context: OperationContext, child: WorkspacePath) => T | Promise<T>): Promise<T> => {
        const child = childPath(path, name);
        return run(operation, child, options, (context) => {
          if (!open.has(held)) throw providerErrors.closed(child, providerName);
          // What no path could reach: the provider's own temporaries and a `.git` alias.
          if (isReservedName(name)) throw refuseReserved(child, false);
          if (isGitAlias(name)) throw providerErrors.protectedPath(child, child);
          return body(context, child);
        });
      };
    return {
      path,
      list: (options) =>
        run('listDirectory', path, options, (context) => {
          if (!open.has(held)) throw providerErrors.closed(path, providerName);
          return listHeldDirectory(context, held.fd, path, options);
        }),
      openDirectory: (name, options) =>
        live(name, options, 'openDirectory')((context, child) => handleOf(holdDirectory(openChildDirectory(context, held.fd, name, child), child))),
      readFile: (name, options) => live(name, options, 'readFile')((context, child) => readFileIn(context, held.fd, name, child, options)),
      // One gate pass and one borrowed working directory for the whole batch (read-files.ts).
      readFiles: (names, options) =>
        run('readFile', path, options, (context) => {
          if (!open.has(held)) throw providerErrors.closed(path, providerName);
          return readFilesIn(context, held.fd, path, names, options);
        }),
      close() {
        if (open.delete(held)) held.release();
      },
    };
  }

  return {
    /** `openDirectory` of the provider: the walk every path takes, then a handle on its last directory. */
    openDirectory: (path: WorkspacePath, options?: ProviderCallOptions): Promise<DirectoryHandle> =>
      run('openDirectory', path, options, (context) => handleOf(walk(context, pathSegments(path)).directory)),
    /** Releases every handle still open; the provider calls it once no call is in flight. */
    closeAll() {
      for (const held of open) held.release();
      open.clear();
    },
  };
}
