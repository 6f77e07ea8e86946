import {
  providerErrors,
  type DirectoryListing,
  type FileRangeRead,
  type FileRead,
  type ListDirectoryOptions,
  type PathStatus,
  type ReadFileOptions,
  type ReadFileRangeOptions,
  type StatOptions,
  type WorkspacePath,
} from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { RowHead } from '../state/entry-rows.js';
import { locatePath } from './locate-path.js';
import { readModeOf } from '../state/mode-of.js';
import { listMerged, listUpperOnly } from './merged-listing.js';
import type { OverlayContext } from '../overlay-context.js';
import { rowRange } from './row-bytes.js';

/** `stat` in the agent's view. */
export async function overlayStat(context: OverlayContext, path: WorkspacePath, options: StatOptions = {}): Promise<PathStatus> {
  context.checkOpen(path);
  checkSignal(options.signal, path);
  const location = locatePath(context.rows, path);
  if (location.at === 'lower') return context.lower.stat(path, options);
  if (location.at === 'covered' || location.row.kind === 'whiteout') return { kind: 'missing', sizeBytes: null, modifiedAt: null };
  const { row } = location;
  if (row.kind !== 'file') return { kind: 'directory', sizeBytes: null, modifiedAt: row.modified_at };
  const status: PathStatus = { kind: 'file', sizeBytes: row.size, modifiedAt: row.modified_at };
  const mode = await rowMode(context, row, options);
  return mode === undefined ? status : { ...status, mode };
}

// The mode a row's file carries (docs/overlay.md, "Modes"), when it is known: given, or a lower file's.
async function rowMode(context: OverlayContext, row: RowHead, options: StatOptions): Promise<number | null | undefined> {
  const named = readModeOf(row.mode_of);
  if (named.kind === 'explicit') return named.mode;
  const lowerPath = named.kind === 'lower' ? named.path : named.kind === 'own' && row.base_kind === 'file' ? row.path : undefined;
  if (lowerPath === undefined) return undefined;
  // A source a person removed or replaced since leaves the mode unknown; the file itself is still there.
  const status = await context.lower.stat(lowerPath, options).catch(() => undefined);
  return status?.kind === 'file' ? status.mode : undefined;
}

/** `readFile` in the agent's view: an unchanged file is the lower's own read, after one indexed lookup. */
export async function overlayReadFile(context: OverlayContext, path: WorkspacePath, options: ReadFileOptions): Promise<FileRead> {
  context.checkOpen(path);
  checkSignal(options.signal, path);
  const location = locatePath(context.rows, path);
  if (location.at === 'lower') return context.lower.readFile(path, options);
  if (location.at === 'covered' || location.row.kind === 'whiteout') throw providerErrors.notFound(path);
  if (location.row.kind === 'directory') throw providerErrors.notAFile(path, 'directory');
  const row = context.rows.head(path);
  if (row === undefined || row.kind !== 'file') throw providerErrors.notFound(path);
  const size = row.size ?? 0;
  const bytes = await rowRange(context, row, 0, Math.min(size, options.maxBytes), options.signal);
  return { bytes, truncated: size > options.maxBytes };
}

/**
 * `readFileRange` in the agent's view: an unchanged file is the lower's own range read; a row
 * gives just the bytes asked for: its segments cut out by SQLite, its lower part (the base of a
 * first append) the lower's own range read, never the whole file.
 */
export async function overlayReadFileRange(context: OverlayContext, path: WorkspacePath, options: ReadFileRangeOptions): Promise<FileRangeRead> {
  context.checkOpen(path);
  checkSignal(options.signal, path);
  const location = locatePath(context.rows, path);
  if (location.at === 'lower') {
    const { readFileRange } = context.lower;
    if (readFileRange === undefined) throw providerErrors.failure(path, null, { effect: 'none' });
    return readFileRange.call(context.lower, path, options);
  }
  if (location.at === 'covered' || location.row.kind === 'whiteout') throw providerErrors.notFound(path);
  if (location.row.kind === 'directory') throw providerErrors.notAFile(path, 'directory');
  const row = context.rows.head(path);
  if (row === undefined || row.kind !== 'file') throw providerErrors.notFound(path);
  const size = row.size ?? 0;
  const end = options.fromEnd === true ? Math.max(0, size - options.offset) : Math.min(size, options.offset + options.maxBytes);
  const start = options.fromEnd === true ? Math.max(0, end - options.maxBytes) : Math.min(size, options.offset);
  return { bytes: await rowRange(context, row, start, end, options.signal), offset: start, sizeBytes: size };
}

/** `listDirectory` in the agent's view: the lower merged with the overlay, in code-point order. */
export async function listDirectoryMerged(context: OverlayContext, path: WorkspacePath, options: ListDirectoryOptions): Promise<DirectoryListing> {
  context.checkOpen(path);
  checkSignal(options.signal, path);
  const location = locatePath(context.rows, path);
  if (location.at === 'lower') return listMerged(context.lower, context.rows, path, options.limit, options.signal);
  if (location.at === 'covered' || location.row.kind === 'whiteout') throw providerErrors.notFound(path);
  if (location.row.kind === 'file') throw providerErrors.notADirectory(path);
  return listUpperOnly(context.rows, path, options.limit);
}
