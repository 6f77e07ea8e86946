import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { overlayDeleteDirectory, overlayDeleteFile, overlayMakeDirectory, overlayRename, overlayWriteFile } from './overlay-mutations.js';
import { overlayAppendFile } from './overlay-append.js';
import { overlayCopyFile } from './overlay-copy.js';
import { listDirectoryMerged, overlayReadFile, overlayReadFileRange, overlayStat } from './overlay-reads.js';
import type { OverlayContext } from '../overlay-context.js';

/**
 * The agent's provider: reads see the overlay over the lower, every change lands in the overlay.
 * It declares what the lower can hold (links, hard links, special files live there) and keeps
 * no host directory: a subprocess in the lower would bypass the overlay.
 */
export function createOverlayProvider(context: OverlayContext, close: () => Promise<void>, durable: boolean): FileSystemProviderV1 {
  const { lower } = context;
  const provider: FileSystemProviderV1 = {
    specificationVersion: 'v1',
    name: `overlay(${lower.name})`,
    capabilities: {
      symlinks: lower.capabilities.symlinks,
      hardLinks: lower.capabilities.hardLinks,
      specialFiles: lower.capabilities.specialFiles,
      atomicReplace: true,
      exclusiveCreate: true,
      durableWrites: durable,
    },
    stat: (path, options) => overlayStat(context, path, options),
    listDirectory: (path, options) => listDirectoryMerged(context, path, options),
    readFile: (path, options) => overlayReadFile(context, path, options),
    writeFile: (path, bytes, options) => overlayWriteFile(context, path, bytes, options),
    makeDirectory: (path, options) => overlayMakeDirectory(context, path, options),
    deleteFile: (path, options) => overlayDeleteFile(context, path, options),
    deleteDirectory: (path, options) => overlayDeleteDirectory(context, path, options),
    rename: (from: WorkspacePath, to: WorkspacePath, options) => overlayRename(context, from, to, options),
    appendFile: (path, bytes, options) => overlayAppendFile(context, path, bytes, options),
    copyFile: (from, to, options) => overlayCopyFile(context, from, to, options),
    close,
  };
  // Ranges of unchanged files are the lower's own: offered only when the lower has them.
  // The lower's naming rules are the overlay's (a write there is refused the same way).
  const { checkPath } = lower;
  if (checkPath !== undefined) provider.checkPath = (path, options) => checkPath.call(lower, path, options);
  if (lower.readFileRange !== undefined) provider.readFileRange = (path, options) => overlayReadFileRange(context, path, options);
  return provider;
}
