import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import {
  asideName,
  casDeleteFile,
  casWrite,
  conflictOf,
  dropAside,
  holds,
  observe,
  returnAside,
  sortManifest,
  type Expectation,
} from './lower-cas.js';
import type { ManifestEntry } from '../agent/lower-files.js';
import { pathBelow } from '../state/state-path.js';
import type { OverlayConflict } from '../overlay-types.js';

/** One entry of a deleted tree, in removal order (deepest first), with the name its file waits under. */
interface TreeSlot {
  readonly entry: ManifestEntry;
  readonly inner: WorkspacePath;
  /** Beside the tree, not in it, so its directories can go while the files wait. */
  readonly aside: WorkspacePath;
}

/** The entries of a tree in removal order with their aside names; a recovery finds them again by the same order. */
export function treeSlots(path: WorkspacePath, manifest: readonly ManifestEntry[], tag: string): TreeSlot[] {
  return [...sortManifest(manifest)].reverse().map((entry, index) => ({
    entry,
    inner: pathBelow(path, entry.path),
    aside: asideName(path, `${tag}-${index}`),
  }));
}

/**
 * Deletes a lower directory only if it holds exactly `manifest`: every file moved aside by
 * compare-and-swap, then each directory removed, deepest first, only once empty. Anything unexpected
 * stops it and puts back what it had moved, so the directory is either gone or as it was. The
 * files aside are unlinked once the tree is gone, or, with `hold`, kept for the caller to commit.
 */
export async function casDeleteTree(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  manifest: readonly ManifestEntry[],
  tag: string,
  hold: boolean,
): Promise<OverlayConflict | null> {
  const expected: Expectation = { kind: 'directory', manifest };
  const seen = await observe(lower, path);
  if (!(await holds(lower, path, expected, seen))) return conflictOf(path, expected, seen);
  if (manifest.some((entry) => entry.kind === 'symlink' || entry.kind === 'other')) {
    // Links and special files can only go with their tree; the manifest was checked just above.
    await lower.deleteDirectory(path, { recursive: true, missingOk: true });
    return null;
  }
  // Every file goes aside before any directory goes, so a removal cut short with no file aside yet
  // has removed nothing: a recovery then leaves the directory as it finds it.
  const slots = treeSlots(path, manifest, tag);
  for (const slot of [...slots.filter((one) => one.entry.kind === 'file'), ...slots.filter((one) => one.entry.kind !== 'file')]) {
    const conflict =
      slot.entry.kind === 'file'
        ? await casDeleteFile(lower, slot.inner, slot.entry.sha256 ?? '', slot.aside, true)
        : await removeEmpty(lower, slot.inner);
    if (conflict !== null) {
      await returnTree(lower, path, manifest, tag, true);
      return { ...conflict, path, reason: conflict.reason === 'deleted_on_disk' ? 'changed_on_disk' : conflict.reason };
    }
  }
  const last = await removeEmpty(lower, path);
  if (last !== null) {
    await returnTree(lower, path, manifest, tag, true);
    return last;
  }
  if (!hold) await dropTree(lower, path, manifest, tag);
  return null;
}

async function removeEmpty(lower: FileSystemProviderV1, path: WorkspacePath): Promise<OverlayConflict | null> {
  try {
    await lower.deleteDirectory(path, { recursive: false, missingOk: true });
    return null;
  } catch (error) {
    if (!LibosError.is(error, 'directory_not_empty', 'not_a_directory', 'symlink_refused')) throw error;
    return { path, reason: 'created_on_disk', expected_sha256: null, actual_sha256: null };
  }
}

/**
 * Puts a tree whose files wait aside back in place: its directories again, then each file moved
 * back where its name is free (a name someone took keeps theirs, and the aside goes). Without
 * `always`, nothing happens when no file waits aside (the removal never started, or it is not
 * this apply's to undo), so a tree a person deleted meanwhile is not brought back.
 */
export async function returnTree(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  manifest: readonly ManifestEntry[],
  tag: string,
  always = false,
): Promise<void> {
  const slots = treeSlots(path, manifest, tag);
  const files = slots.filter((slot) => slot.entry.kind === 'file');
  if (!always && files.length > 0) {
    let waiting = false;
    for (const slot of files) if ((await observe(lower, slot.aside)).kind !== 'missing') waiting = true;
    if (!waiting) return;
  }
  await makeDirectoryIfFree(lower, path);
  for (const slot of [...slots].reverse()) if (slot.entry.kind === 'directory') await makeDirectoryIfFree(lower, slot.inner);
  for (const slot of files) await returnAside(lower, slot.inner, slot.entry.sha256 ?? '', slot.aside);
}

/** Unlinks the files of a removed tree that wait aside (the removal is final). */
export async function dropTree(lower: FileSystemProviderV1, path: WorkspacePath, manifest: readonly ManifestEntry[], tag: string): Promise<void> {
  for (const slot of treeSlots(path, manifest, tag)) if (slot.entry.kind === 'file') await dropAside(lower, slot.entry.sha256 ?? '', slot.aside);
}

/** Makes a directory unless something else holds the name (then that stays). */
export async function makeDirectoryIfFree(lower: FileSystemProviderV1, path: WorkspacePath): Promise<OverlayConflict | null> {
  try {
    await lower.makeDirectory(path, { parents: true, existOk: true });
    return null;
  } catch (error) {
    if (!LibosError.is(error, 'not_a_directory', 'already_exists', 'symlink_refused', 'not_found')) throw error;
    return conflictOf(path, { kind: 'missing' }, await observe(lower, path));
  }
}

/**
 * Re-creates a directory's files and directories from their journaled bytes where nothing stands
 * now (an undo, after the files aside are gone); a name someone took keeps theirs.
 */
export async function rewriteTree(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  entries: readonly ManifestEntry[],
): Promise<OverlayConflict | null> {
  await makeDirectoryIfFree(lower, path);
  let conflict: OverlayConflict | null = null;
  for (const entry of sortManifest(entries)) {
    const inner = pathBelow(path, entry.path);
    if (entry.kind === 'directory') conflict = (await makeDirectoryIfFree(lower, inner)) ?? conflict;
    else if (entry.kind === 'file') {
      const seen = await observe(lower, inner);
      if (seen.kind === 'file' && seen.sha256 === entry.sha256) continue;
      conflict = (await casWrite(lower, inner, entry.bytes ?? new Uint8Array(), { kind: 'missing' })) ?? conflict;
    }
  }
  return conflict === null ? null : { ...conflict, path };
}
