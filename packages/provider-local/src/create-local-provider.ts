import { LibosError, pathSegments } from '@libos/core';
import type { FileSystemProviderV1, PathStatus, ProviderCallOptions, ProviderCapabilities, WorkspacePath } from '@libos/core';
import { checkSignal, createCallGate } from '@libos/provider-kit';
import { appendFile } from './append-file.js';
import { copyFile } from './copy-file.js';
import { deleteDirectory } from './delete-directory.js';
import { deleteFile } from './delete-file.js';
import { createDirectoryHandles } from './directory-handles.js';
import { renameFile } from './rename-file.js';
import { FdPaths } from './fd-paths.js';
import { hostPathOf } from './host-path.js';
import { listDirectory } from './list-directory.js';
import type { LocalProviderOptions, LocalProviderTestingHooks } from './local-provider-options.js';
import { makeDirectory } from './make-directory.js';
import { mapNodeError } from './map-node-error.js';
import type { OperationContext } from './operation-context.js';
import { PinnedRoot } from './pinned-root.js';
import { readFile } from './read-file.js';
import { readFileRange } from './read-file-range.js';
import { isReservedName, namesReserved, refuseReserved } from './reserved-names.js';
import { searchTree } from './search-tree.js';
import { StagingArea } from './staging-area.js';
import { statPath } from './stat-path.js';
import { walk } from './walk.js';
import { writeFile } from './write-file.js';

const capabilities: ProviderCapabilities = {
  symlinks: true,
  hardLinks: true,
  specialFiles: true,
  atomicReplace: true,
  exclusiveCreate: true,
  durableWrites: true,
};

/**
 * The provider over a real Linux directory. It opens the root once and refuses to start unless
 * `/proc/self/fd` is a real procfs leading back to it; every path is then walked one pinned
 * directory at a time, never following a link (see README.md for the algorithm and residual races).
 * Throws `provider_failure` when the root cannot be opened or `/proc` cannot be trusted.
 */
export function createLocalProvider(options: LocalProviderOptions): FileSystemProviderV1 {
  return openLocalProvider(options, {});
}

/** `createLocalProvider` with testing hooks; reachable only through `@libos/provider-local/testing`. */
export function openLocalProvider(options: LocalProviderOptions, hooks: LocalProviderTestingHooks): FileSystemProviderV1 {
  const procFdDirectory = hooks.procFdDirectory ?? '/proc/self/fd';
  const root = new PinnedRoot(options.root, procFdDirectory);
  const paths = new FdPaths(procFdDirectory, options.borrowWorkingDirectory === true);
  const gate = createCallGate('local');
  let staging: StagingArea;
  try {
    staging = new StagingArea(root, paths, gate);
  } catch (error) {
    // A staging directory that is not ours refuses the start: nothing may stay open.
    root.close();
    throw error;
  }

  // The gate keeps every call in flight until its host calls are done, so close never frees an fd a call still names.
  function run<T>(
    operation: string,
    path: WorkspacePath,
    callOptions: ProviderCallOptions | undefined,
    body: (context: OperationContext) => T | Promise<T>,
  ): Promise<T> {
    return gate.run(path, async () => {
      checkSignal(callOptions?.signal, path);
      try {
        return await body({ root, paths, staging, hooks, operation, signal: callOptions?.signal });
      } catch (error) {
        // Host errors are classified where they happen; one that escaped may have changed something.
        throw LibosError.is(error) ? error : mapNodeError(error, path, 'unknown');
      }
    });
  }

  const handles = createDirectoryHandles(run, 'local');

  return {
    specificationVersion: 'v1',
    name: 'local',
    capabilities,
    // A path through the reserved staging name is answered before any host call: it never exists.
    stat: (path, statOptions) =>
      run('stat', path, statOptions, (context) => (namesReserved(path) ? reservedStatus(context, path) : statPath(context, path))),
    listDirectory: (path, listOptions) =>
      run('listDirectory', path, listOptions, (context) => (refuseIfReserved(path, false), listDirectory(context, path, listOptions))),
    readFile: (path, readOptions) =>
      run('readFile', path, readOptions, (context) => (refuseIfReserved(path, false), readFile(context, path, readOptions))),
    writeFile: (path, bytes, writeOptions) =>
      run('writeFile', path, writeOptions, (context) => (refuseIfReserved(path, true), writeFile(context, path, bytes, writeOptions))),
    makeDirectory: (path, makeOptions) =>
      run('makeDirectory', path, makeOptions, (context) => (refuseIfReserved(path, true), makeDirectory(context, path, makeOptions))),
    deleteFile: (path, deleteOptions) =>
      run('deleteFile', path, deleteOptions, (context) =>
        namesReserved(path) ? missingOr(deleteOptions.missingOk, path) : deleteFile(context, path, deleteOptions),
      ),
    deleteDirectory: (path, deleteOptions) =>
      run('deleteDirectory', path, deleteOptions, (context) =>
        namesReserved(path) ? missingOr(deleteOptions.missingOk, path) : deleteDirectory(context, path, deleteOptions),
      ),
    rename: (from, to, renameOptions) =>
      run(
        'rename',
        from,
        renameOptions,
        (context) => (refuseIfReserved(from, false), refuseIfReserved(to, true), renameFile(context, from, to, renameOptions)),
      ),
    appendFile: (path, bytes, appendOptions) =>
      run('appendFile', path, appendOptions, (context) => (refuseIfReserved(path, true), appendFile(context, path, bytes, appendOptions))),
    copyFile: (from, to, copyOptions) =>
      run(
        'copyFile',
        from,
        copyOptions,
        (context) => (refuseIfReserved(from, false), refuseIfReserved(to, true), copyFile(context, from, to, copyOptions)),
      ),
    readFileRange: (path, rangeOptions) =>
      run('readFileRange', path, rangeOptions, (context) => (refuseIfReserved(path, false), readFileRange(context, path, rangeOptions))),
    // The whole tree in one gate pass: search-tree.ts keeps every rule of the walk and of readFile.
    searchTree: (path, query) => run('searchTree', path, query, (context) => (refuseIfReserved(path, false), searchTree(context, path, query))),
    checkPath: (path, checkOptions) => refuseIfReserved(path, checkOptions.creates),
    openDirectory: async (path, openOptions) => {
      refuseIfReserved(path, false);
      return handles.openDirectory(path, openOptions);
    },
    hostPath(path) {
      const leave = gate.enter(path);
      try {
        refuseIfReserved(path, false);
        return hostPathOf({ root, paths, staging, hooks, operation: 'hostPath' }, path);
      } catch (error) {
        throw mapNodeError(error, path);
      } finally {
        leave();
      }
    },
    close: () =>
      gate.close(async () => {
        handles.closeAll();
        root.close();
        await staging.close();
      }),
  };
}

function refuseIfReserved(path: WorkspacePath, creates: boolean): void {
  if (namesReserved(path)) throw refuseReserved(path, creates);
}

function missingOr(missingOk: boolean, path: WorkspacePath): { readonly deleted: boolean } {
  if (missingOk) return { deleted: false };
  throw refuseReserved(path, false);
}

// As stat reports a missing name: the directories before the reserved component are walked as
// for any path, then the reserved name is `missing` as the last component and `not_found` below it.
function reservedStatus(context: OperationContext, path: WorkspacePath): PathStatus {
  const segments = pathSegments(path);
  const first = segments.findIndex(isReservedName);
  walk(context, segments.slice(0, first)).directory.release();
  if (first === segments.length - 1) return { kind: 'missing', sizeBytes: null, modifiedAt: null };
  throw refuseReserved(path, false);
}
