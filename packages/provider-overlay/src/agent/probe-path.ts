import { LibosError, baseName, parentPath, parseCanonicalPath, providerErrors, type EntryKind, type WorkspacePath } from '@libos/core';
import type { BaseKind, EntryRow, RowHead } from '../state/entry-rows.js';
import { locatePath, prefixesOf } from './locate-path.js';
import { lowerManifest, readWhole, sha256Hex } from './lower-files.js';
import type { OverlayContext } from '../overlay-context.js';

/** What a mutation observed at its path before deciding. */
export interface Probe {
  readonly path: WorkspacePath;
  readonly kind: EntryKind | 'missing';
  /** The overlay row that decides the path, if one does (without its bytes: a probe never loads them). */
  readonly row: RowHead | undefined;
  /** True when the lower cannot show through at the path (an overlay directory above hides it). */
  readonly covered: boolean;
  readonly lowerSize: number | null;
  /** When missing: the shallowest missing prefix (the path itself when only it is missing). */
  readonly firstMissing: WorkspacePath | undefined;
}

const signalOption = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** Observes `path` in the agent's view; ancestors that are files, links or mounts fail as on the lower. */
export async function probePath(context: OverlayContext, path: WorkspacePath, signal: AbortSignal | undefined): Promise<Probe> {
  let location: ReturnType<typeof locatePath>;
  try {
    location = locatePath(context.rows, path);
  } catch (error) {
    const missing = missingAncestor(error);
    if (missing === undefined) throw error;
    return { path, kind: 'missing', row: undefined, covered: true, lowerSize: null, firstMissing: missing };
  }
  if (location.at === 'upper') {
    const row = context.rows.head(location.row.path) as RowHead;
    const kind = row.kind === 'whiteout' ? 'missing' : row.kind;
    return { path, kind, row, covered: true, lowerSize: null, firstMissing: kind === 'missing' ? path : undefined };
  }
  if (location.at === 'covered') return { path, kind: 'missing', row: undefined, covered: true, lowerSize: null, firstMissing: path };
  try {
    const status = await context.lower.stat(path, signalOption(signal));
    const firstMissing = status.kind === 'missing' ? path : undefined;
    return { path, kind: status.kind, row: undefined, covered: false, lowerSize: status.sizeBytes, firstMissing };
  } catch (error) {
    const missing = missingAncestor(error);
    if (missing === undefined) throw error;
    return { path, kind: 'missing', row: undefined, covered: false, lowerSize: null, firstMissing: missing };
  }
}

/** The source of a copy or a move in the agent's view: a regular file, or the refusal the contract names for it. */
export async function probeSource(context: OverlayContext, from: WorkspacePath, signal: AbortSignal | undefined): Promise<Probe> {
  const source = await probePath(context, from, signal);
  if (source.kind === 'missing') throw providerErrors.notFound(from, source.firstMissing);
  if (source.kind === 'directory' || source.kind === 'other') throw providerErrors.notAFile(from, source.kind);
  if (source.kind === 'symlink') throw providerErrors.symlinkRefused(from);
  return source;
}

// Providers name the first missing ancestor as `missing`, or report it as the error's own `path`.
function missingAncestor(error: unknown): WorkspacePath | undefined {
  if (!LibosError.is(error, 'not_found') || error.details?.reason !== undefined) return undefined;
  const missing = error.details?.missing ?? error.details?.path;
  return typeof missing === 'string' ? (parseCanonicalPath(missing) ?? undefined) : undefined;
}

/** The base a first change of a lower entry records: its hash and size, or its manifest. */
export interface RecordedBase {
  readonly base_kind: BaseKind;
  readonly base_sha256: string | null;
  readonly base_size: number | null;
  readonly base_files: number | null;
  readonly manifest_id: number | null;
  /** Manifest rows to store under `manifest_id` with the commit. */
  readonly manifest?: ReadonlyArray<{ path: string; kind: string; sha256: string | null; size: number | null }>;
}

export const MISSING_BASE: RecordedBase = { base_kind: 'missing', base_sha256: null, base_size: null, base_files: null, manifest_id: null };

/** Reads what the lower holds at a probed path that has no overlay row yet, to record it as the base. */
export async function lowerBase(
  context: OverlayContext,
  probe: Probe,
  signal: AbortSignal | undefined,
): Promise<RecordedBase & { bytes?: Uint8Array }> {
  if (probe.row !== undefined) return baseOfRow(probe.row);
  if (probe.covered || probe.kind === 'missing') return MISSING_BASE;
  if (probe.kind === 'file') {
    const bytes = await readWhole(context.lower, probe.path, probe.lowerSize, signal);
    return { base_kind: 'file', base_sha256: sha256Hex(bytes), base_size: bytes.length, base_files: null, manifest_id: null, bytes };
  }
  if (probe.kind === 'directory') {
    const manifest = await lowerManifest(context.lower, probe.path, signal === undefined ? {} : { signal });
    return {
      base_kind: 'directory',
      base_sha256: null,
      base_size: null,
      base_files: manifest.filter((entry) => entry.kind === 'file').length,
      manifest_id: null,
      manifest,
    };
  }
  throw probe.kind === 'symlink' ? providerErrors.symlinkRefused(probe.path) : providerErrors.notAFile(probe.path, 'other');
}

/** The base a row already carries (the first change's). */
export function baseOfRow(row: RowHead): RecordedBase {
  return {
    base_kind: row.base_kind,
    base_sha256: row.base_sha256,
    base_size: row.base_size,
    base_files: row.base_files,
    manifest_id: row.manifest_id,
  };
}

/** A directory row for each missing prefix from `firstMissing` down to the parent of `path`. */
export function missingParents(context: OverlayContext, path: WorkspacePath, firstMissing: WorkspacePath, at: string): EntryRow[] {
  const parent = parentPath(path);
  if (parent === null) return [];
  const made: EntryRow[] = [];
  let inside = false;
  for (const prefix of prefixesOf(parent)) {
    if (prefix === firstMissing) inside = true;
    if (!inside) continue;
    const existing = context.rows.head(prefix);
    const base = existing === undefined ? MISSING_BASE : baseOfRow(existing);
    made.push(directoryRow(prefix, base, at));
  }
  return made;
}

/** A fresh overlay directory row that hides the lower below it. */
export function directoryRow(path: WorkspacePath, base: RecordedBase, at: string): EntryRow {
  return {
    path,
    parent: parentPath(path) ?? '',
    name: baseName(path),
    kind: 'directory',
    opaque: 1,
    content: null,
    sha256: null,
    size: null,
    modified_at: at,
    base_kind: base.base_kind,
    base_sha256: base.base_sha256,
    base_size: base.base_size,
    base_files: base.base_files,
    manifest_id: base.manifest_id,
    change: null,
  };
}

/**
 * An overlay file row holding `bytes` (not copied: the caller hands them over) with the mode of
 * `modeOf`, moved from the lower file `movedFrom` when it is a rename's target (or carries one).
 */
export function fileRow(
  path: WorkspacePath,
  bytes: Uint8Array,
  base: RecordedBase,
  at: string,
  modeOf: string | null = null,
  movedFrom: string | null = null,
): EntryRow {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    ...directoryRow(path, base, at),
    kind: 'file',
    content,
    sha256: sha256Hex(bytes),
    size: bytes.length,
    mode_of: modeOf,
    moved_from: movedFrom === path ? null : movedFrom,
    lower_bytes: 0,
    hash_state: null,
  };
}

/**
 * Whose mode a copy or a move of the probed file carries (docs/overlay.md, "Modes"): the lower
 * file's own, the one its row already names, or a new file's default ('') for a file the agent made.
 */
export function modeOfSource(source: Probe): string {
  const { row } = source;
  if (row === undefined) return source.path;
  if (row.mode_of !== undefined && row.mode_of !== null) return row.mode_of;
  return row.base_kind === 'file' ? row.path : '';
}

/**
 * The lower file a move of the probed file carries (docs/overlay.md, "Renames"): the one its row
 * was already moved from, else its own lower file (unchanged or edited), else none (the agent made it).
 */
export function movedFromOf(source: Probe): string | null {
  const { row } = source;
  if (row === undefined) return source.path;
  if (row.moved_from !== undefined && row.moved_from !== null) return row.moved_from;
  return row.base_kind === 'file' ? row.path : null;
}

/** A whiteout row: the path is deleted in the agent's view. */
export function whiteoutRow(path: WorkspacePath, base: RecordedBase, at: string): EntryRow {
  return { ...directoryRow(path, base, at), kind: 'whiteout' };
}
