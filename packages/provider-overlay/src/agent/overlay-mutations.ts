import {
  checkFileMode,
  isGitAlias,
  isRootPath,
  providerErrors,
  type DeleteDirectoryOptions,
  type DeleteFileOptions,
  type MakeDirectoryOptions,
  type ProviderCallOptions,
  type RenameOptions,
  type WorkspacePath,
  type WriteFileOptions,
} from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import type { CallEditor } from '../state/call-history.js';
import { lowerManifestStore } from '../state/manifest-store.js';
import { locatePath } from './locate-path.js';
import { wholeBytes } from './row-bytes.js';
import { listMerged, listUpperOnly } from './merged-listing.js';
import { listDirectoryMerged } from './overlay-reads.js';
import { explicitModeOf } from '../state/mode-of.js';
import { mutate, type OverlayContext } from '../overlay-context.js';
import {
  MISSING_BASE,
  baseOfRow,
  directoryRow,
  fileRow,
  lowerBase,
  missingParents,
  modeOfSource,
  movedFromOf,
  probePath,
  probeSource,
  whiteoutRow,
  type Probe,
  type RecordedBase,
} from './probe-path.js';

/** What history records a call as: its caller's `label` (a tool's name), the deprecated `tool`, else the method (docs/overlay.md). */
// An empty name names nothing: the method is shown instead.
export const labelOf = (options: ProviderCallOptions, method: string): string => options.label || options.tool || method;

/**
 * The lower's naming rules hold on the overlay (docs/overlay.md, "The agent's view"): a path the
 * lower keeps for itself (the local provider's staging directory) is refused when the agent would
 * create it, with the lower's own error, so no change is accepted that the apply could not land.
 */
export function refuseLowerRules(context: OverlayContext, path: WorkspacePath): void {
  context.lower.checkPath?.(path, { creates: true });
}

/** Directory rows for the missing parents of a probed path, through `editor`. */
export function putParents(context: OverlayContext, editor: CallEditor, probe: Probe, at: string): void {
  if (probe.kind !== 'missing' || probe.firstMissing === undefined || probe.firstMissing === probe.path) return;
  for (const row of missingParents(context, probe.path, probe.firstMissing, at)) editor.put(row);
}

/** The base a copy or a rename records at its target: the lower file's, the row's, or none. */
export async function targetBaseOf(context: OverlayContext, target: Probe, signal: AbortSignal | undefined): Promise<RecordedBase> {
  if (target.kind === 'file') return lowerBase(context, target, signal);
  return target.row === undefined ? MISSING_BASE : baseOfRow(target.row);
}

/** The bytes a copy or a rename carries: every byte of the source's row, else what the lower's read gave. */
export async function sourceBytes(
  context: OverlayContext,
  from: WorkspacePath,
  source: Probe,
  sourceBase: RecordedBase & { readonly bytes?: Uint8Array },
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  const row = source.row === undefined ? undefined : context.rows.get(source.row.path);
  if (row !== undefined) return wholeBytes(context, row, signal);
  const bytes = 'bytes' in sourceBase ? sourceBase.bytes : undefined;
  if (bytes === undefined) throw providerErrors.failure(from, null, { effect: 'none' });
  return bytes;
}

/** What a copy or a rename found on both sides, with the bytes it carries. */
export interface Transfer {
  readonly source: Probe;
  readonly target: Probe;
  readonly targetBase: RecordedBase;
  readonly bytes: Uint8Array;
}

/**
 * Writes the target of a copy or a rename: its missing parents, then a row of the source's bytes
 * and mode; a rename's row also names the lower file it was moved from (`movedFromOf`).
 */
export function putTransfer(context: OverlayContext, editor: CallEditor, to: WorkspacePath, transfer: Transfer, at: string, moves = false): void {
  putParents(context, editor, transfer.target, at);
  const movedFrom = moves ? movedFromOf(transfer.source) : null;
  editor.put(fileRow(to, transfer.bytes, lowerManifestStore(context, transfer.targetBase), at, modeOfSource(transfer.source), movedFrom));
}

/** `writeFile` in the agent's view: the bytes land in the overlay, the base is recorded once. */
export function overlayWriteFile(context: OverlayContext, path: WorkspacePath, bytes: Uint8Array, options: WriteFileOptions) {
  const mode = checkFileMode(options.mode, path);
  const copy = new Uint8Array(bytes);
  return mutate(
    context,
    path,
    labelOf(options, 'writeFile'),
    async () => {
      checkSignal(options.signal, path);
      refuseLowerRules(context, path);
      const probe = await probePath(context, path, options.signal);
      if (probe.kind === 'directory' || probe.kind === 'other') throw providerErrors.notAFile(path, probe.kind);
      if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
      if (probe.kind === 'file' && !options.overwrite) throw providerErrors.alreadyExists(path);
      const base = probe.row === undefined && probe.kind === 'file' ? await lowerBase(context, probe, options.signal) : undefined;
      const current = probe.kind !== 'file' ? null : (probe.row?.sha256 ?? base?.base_sha256 ?? null);
      const expected = options.expectedSha256;
      if (expected === 'missing' && probe.kind === 'file') throw providerErrors.contentConflict(path, 'missing', current);
      if (expected !== undefined && expected !== 'missing' && expected !== current) throw providerErrors.contentConflict(path, expected, current);
      checkSignal(options.signal, path);
      return { probe, base: base ?? (probe.row === undefined ? MISSING_BASE : baseOfRow(probe.row)) };
    },
    ({ probe, base }, begin) => {
      const at = context.now();
      const editor = begin([path]);
      putParents(context, editor, probe, at);
      // A replaced file keeps its mode, as on the lower: the mode a copied row carries stays; a given mode is the row's own.
      const modeOf = mode === undefined ? (probe.row?.mode_of ?? null) : explicitModeOf(mode);
      // A moved file written again is still the file moved (a rename with edits).
      editor.put(fileRow(path, copy, lowerManifestStore(context, base), at, modeOf, probe.row?.moved_from ?? null));
      return { created: probe.kind === 'missing' };
    },
  );
}

/** `makeDirectory` in the agent's view. */
export function overlayMakeDirectory(context: OverlayContext, path: WorkspacePath, options: MakeDirectoryOptions) {
  return mutate(
    context,
    path,
    labelOf(options, 'makeDirectory'),
    async () => {
      checkSignal(options.signal, path);
      refuseLowerRules(context, path);
      const probe = await probePath(context, path, options.signal);
      if (probe.kind === 'directory') {
        if (!options.existOk) throw providerErrors.alreadyExists(path);
        return undefined;
      }
      if (probe.kind === 'file' || probe.kind === 'other') throw providerErrors.notADirectory(path);
      if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
      if (!options.parents && probe.firstMissing !== path) throw providerErrors.notFound(path, probe.firstMissing);
      return probe;
    },
    (probe, begin) => {
      if (probe === undefined) return { created: false };
      const at = context.now();
      const editor = begin([path]);
      putParents(context, editor, probe, at);
      editor.put(directoryRow(path, probe.row === undefined ? MISSING_BASE : baseOfRow(probe.row), at));
      return { created: true };
    },
  );
}

/** `deleteFile` in the agent's view: a whiteout hides the lower file; a file the agent made just goes. */
export function overlayDeleteFile(context: OverlayContext, path: WorkspacePath, options: DeleteFileOptions) {
  return mutate(
    context,
    path,
    labelOf(options, 'deleteFile'),
    async () => {
      checkSignal(options.signal, path);
      const probe = await probePath(context, path, options.signal);
      if (probe.kind === 'missing') {
        if (options.missingOk) return undefined;
        throw providerErrors.notFound(path, probe.firstMissing);
      }
      if (probe.kind === 'directory' || probe.kind === 'other') throw providerErrors.notAFile(path, probe.kind);
      if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
      return lowerBase(context, probe, options.signal);
    },
    (base, begin) => {
      if (base === undefined) return { deleted: false };
      removeOrHide(context, begin([path]), path, base);
      return { deleted: true };
    },
  );
}

/** Removes an agent-made row, or hides the lower entry under a whiteout. */
export function removeOrHide(context: OverlayContext, editor: CallEditor, path: WorkspacePath, base: RecordedBase): void {
  if (base.base_kind === 'missing') editor.remove(path);
  else editor.put(whiteoutRow(path, lowerManifestStore(context, base), context.now()));
}

/** `deleteDirectory` in the agent's view; a recursive delete refuses `.git` and mounts as the lower would. */
export function overlayDeleteDirectory(context: OverlayContext, path: WorkspacePath, options: DeleteDirectoryOptions) {
  return mutate(
    context,
    path,
    labelOf(options, 'deleteDirectory'),
    async () => {
      checkSignal(options.signal, path);
      if (isRootPath(path)) throw providerErrors.rootRefused(path);
      const probe = await probePath(context, path, options.signal);
      if (probe.kind === 'missing') {
        if (options.missingOk) return undefined;
        throw providerErrors.notFound(path, probe.firstMissing);
      }
      if (probe.kind === 'file' || probe.kind === 'other') throw providerErrors.notADirectory(path);
      if (probe.kind === 'symlink') throw providerErrors.symlinkRefused(path);
      // A directory the lower never removes (a mount point) is refused now, not at apply.
      context.lower.checkPath?.(path, { creates: false, removes: true });
      if (!options.recursive) {
        const listing = await listDirectoryMerged(context, path, { limit: 1, ...(options.signal === undefined ? {} : { signal: options.signal }) });
        if (listing.entries.length > 0) throw providerErrors.directoryNotEmpty(path);
      } else {
        await refuseProtected(context, path, path, options.signal);
      }
      return lowerBase(context, probe, options.signal);
    },
    (base, begin) => {
      if (base === undefined) return { deleted: false };
      const editor = begin([path]);
      editor.removeBelow(path);
      removeOrHide(context, editor, path, base);
      return { deleted: true };
    },
  );
}

// The whole merged tree is walked before anything is hidden, so a `.git` alias anywhere refuses the
// delete with nothing changed, as on the lower. Below an overlay directory only rows are read, so a
// deep tree costs its entries, not depth times its depth.
async function refuseProtected(context: OverlayContext, root: WorkspacePath, directory: WorkspacePath, signal: AbortSignal | undefined) {
  const visit = async (current: WorkspacePath, upperOnly: boolean): Promise<void> => {
    const listing = upperOnly ? listUpperOnly(context.rows, current, WHOLE) : await listMerged(context.lower, context.rows, current, WHOLE, signal);
    for (const entry of listing.entries) {
      if (isGitAlias(entry.name)) throw providerErrors.protectedPath(root, entry.path);
    }
    for (const entry of listing.entries) {
      if (entry.kind !== 'directory') continue;
      const row = upperOnly ? undefined : context.rows.head(entry.path);
      await visit(entry.path, upperOnly || (row !== undefined && row.kind === 'directory' && row.opaque === 1));
    }
  };
  const location = locatePath(context.rows, directory);
  await visit(directory, location.at !== 'lower');
}

const WHOLE = 2 ** 31 - 1;

/** `rename` in the agent's view: one transaction writes `to` and hides `from`. */
export function overlayRename(context: OverlayContext, from: WorkspacePath, to: WorkspacePath, options: RenameOptions) {
  return mutate(
    context,
    from,
    labelOf(options, 'rename'),
    async () => {
      checkSignal(options.signal, from);
      refuseLowerRules(context, to);
      const source = await probeSource(context, from, options.signal);
      const target = await probePath(context, to, options.signal);
      if (target.kind === 'symlink') throw providerErrors.symlinkRefused(to);
      if (target.kind === 'directory' || target.kind === 'other') throw providerErrors.notAFile(to, target.kind);
      const sourceBase = await lowerBase(context, source, options.signal);
      if (from === to) return undefined;
      if (target.kind === 'file' && !options.overwrite) throw providerErrors.alreadyExists(to);
      const targetBase = await targetBaseOf(context, target, options.signal);
      const bytes = await sourceBytes(context, from, source, sourceBase, options.signal);
      checkSignal(options.signal, from);
      return { source, sourceBase, target, targetBase, bytes };
    },
    (probed, begin) => {
      if (probed === undefined) return { replaced: false };
      const editor = begin([from, to]);
      putTransfer(context, editor, to, probed, context.now(), true);
      removeOrHide(context, editor, from, probed.sourceBase);
      return { replaced: probed.target.kind === 'file' };
    },
  );
}
