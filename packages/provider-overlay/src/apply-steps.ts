import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { asideName, casDeleteFile, casWrite, conflictOf, holds, observe, sortManifest, type Expectation } from './lower-cas.js';
import type { ManifestEntry } from './lower-files.js';
import type { OverlayConflict } from './overlay-types.js';

/** What one apply step changes on disk: remove the base (if any), then put the agent's entry (if any). */
export interface StepPlan {
  readonly path: string;
  /** What the lower held when the change was made. */
  readonly base:
    | { readonly kind: 'file'; readonly sha256: string }
    | { readonly kind: 'missing' }
    | { readonly kind: 'directory'; readonly manifest_id: number };
  /** What lands: the agent's file (by hash), a directory, or nothing (a deletion). */
  readonly put: { readonly kind: 'file'; readonly sha256: string } | { readonly kind: 'directory' } | null;
  /** Names this step's aside files, unique per apply and step. */
  readonly tag: string;
}

/** The bytes a step needs: the agent's file, and what the disk held before (for undo and roll back). */
export interface StepData {
  readonly plan: StepPlan;
  readonly newBytes: Uint8Array | null;
  readonly beforeBytes: Uint8Array | null;
  /** The files and directories a base directory held, with their bytes. */
  readonly beforeTree: readonly ManifestEntry[];
}

/** The base as a compare-and-swap expectation. */
export function beforeOf(data: StepData): Expectation {
  const { base } = data.plan;
  if (base.kind === 'directory') return { kind: 'directory', manifest: data.beforeTree };
  return base;
}

/** The entry the step leaves on disk, as an expectation (a directory's contents are its children's steps). */
export function afterOf(plan: StepPlan): Expectation {
  if (plan.put === null) return { kind: 'missing' };
  if (plan.put.kind === 'file') return plan.put;
  return { kind: 'directory', manifest: [] };
}

/** Whether the lower shows the step done (a directory counts by kind alone, its children may lag). */
export async function showsAfter(lower: FileSystemProviderV1, plan: StepPlan): Promise<boolean> {
  const seen = await observe(lower, plan.path as WorkspacePath);
  if (plan.put?.kind === 'directory') return seen.kind === 'directory';
  return holds(lower, plan.path as WorkspacePath, afterOf(plan), seen);
}

/** Removes the base from disk by compare-and-swap: a file by hash, a directory by its manifest. */
async function removeBase(lower: FileSystemProviderV1, data: StepData): Promise<OverlayConflict | null> {
  const path = data.plan.path as WorkspacePath;
  const { base } = data.plan;
  if (base.kind === 'missing') return null;
  if (base.kind === 'file') {
    if (data.plan.put?.kind === 'file') return null; // replaced in place by the guarded write
    return casDeleteFile(lower, path, base.sha256, asideName(path, `${data.plan.tag}`));
  }
  return casDeleteTree(lower, path, data.beforeTree, data.plan.tag);
}

/** Carries one step out on disk; returns the conflict when the disk no longer holds the base. */
export async function forward(lower: FileSystemProviderV1, data: StepData): Promise<OverlayConflict | null> {
  const path = data.plan.path as WorkspacePath;
  const removed = await removeBase(lower, data);
  if (removed !== null) return removed;
  const { put, base } = data.plan;
  if (put === null) return null;
  if (put.kind === 'directory') return makeDirectory(lower, path);
  const expected: Expectation = base.kind === 'file' && put.kind === 'file' ? base : { kind: 'missing' };
  return casWrite(lower, path, data.newBytes ?? new Uint8Array(), expected);
}

async function makeDirectory(lower: FileSystemProviderV1, path: WorkspacePath): Promise<OverlayConflict | null> {
  try {
    await lower.makeDirectory(path, { parents: true, existOk: true });
    return null;
  } catch (error) {
    if (!LibosError.is(error, 'not_a_directory', 'already_exists', 'symlink_refused', 'not_found')) throw error;
    return conflictOf(path, { kind: 'missing' }, await observe(lower, path));
  }
}

/**
 * Puts back on disk what a done step replaced, by compare-and-swap against what the step left:
 * a path changed since is a conflict and keeps its bytes.
 */
export async function backward(lower: FileSystemProviderV1, data: StepData): Promise<OverlayConflict | null> {
  const path = data.plan.path as WorkspacePath;
  const { put, base } = data.plan;
  const after = afterOf(data.plan);
  if (put?.kind === 'file') {
    if (base.kind === 'file') return casWrite(lower, path, data.beforeBytes ?? new Uint8Array(), after);
    const deleted = await casDeleteFile(lower, path, put.sha256, asideName(path, `${data.plan.tag}-undo`));
    if (deleted !== null) return deleted;
  } else if (put?.kind === 'directory') {
    try {
      await lower.deleteDirectory(path, { recursive: false, missingOk: true });
    } catch (error) {
      if (!LibosError.is(error, 'directory_not_empty', 'not_a_directory', 'symlink_refused')) throw error;
      return { ...conflictOf(path, after, await observe(lower, path)), reason: 'changed_on_disk' };
    }
  } else {
    const seen = await observe(lower, path);
    if (seen.kind !== 'missing') return conflictOf(path, after, seen);
  }
  if (base.kind === 'file') return casWrite(lower, path, data.beforeBytes ?? new Uint8Array(), { kind: 'missing' });
  if (base.kind === 'directory') return restoreTree(lower, path, data.beforeTree);
  return null;
}

/** Whether the lower already shows what the step replaced (an undo that ran before a crash). */
export async function showsBefore(lower: FileSystemProviderV1, data: StepData): Promise<boolean> {
  return holds(lower, data.plan.path as WorkspacePath, beforeOf(data));
}

/**
 * Deletes a lower directory only if it holds exactly `manifest`: every file by compare-and-swap,
 * deepest first, each directory only once empty. Anything unexpected stops it, and what it had
 * deleted is put back, so the directory is either gone or as it was.
 */
export async function casDeleteTree(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  manifest: readonly ManifestEntry[],
  tag: string,
): Promise<OverlayConflict | null> {
  const expected: Expectation = { kind: 'directory', manifest };
  const seen = await observe(lower, path);
  if (!(await holds(lower, path, expected, seen))) return conflictOf(path, expected, seen);
  const entries = sortManifest(manifest);
  if (entries.some((entry) => entry.kind === 'symlink' || entry.kind === 'other')) {
    // Links and special files can only go with their tree; the manifest was checked just above.
    await lower.deleteDirectory(path, { recursive: true, missingOk: true });
    return null;
  }
  const removed: ManifestEntry[] = [];
  // Aside names follow each entry's place in this order, so a recovery can find them again.
  for (const [index, entry] of [...entries].reverse().entries()) {
    const inner = `${path}/${entry.path}` as WorkspacePath;
    let conflict: OverlayConflict | null = null;
    if (entry.kind === 'file') {
      conflict = await casDeleteFile(lower, inner, entry.sha256 ?? '', asideName(inner, `${tag}-${index}`));
    } else {
      conflict = await removeEmpty(lower, inner);
    }
    if (conflict !== null) {
      await restoreTree(lower, path, removed.reverse());
      return { ...conflict, path, reason: conflict.reason === 'deleted_on_disk' ? 'changed_on_disk' : conflict.reason };
    }
    removed.push(entry);
  }
  const last = await removeEmpty(lower, path);
  if (last !== null) await restoreTree(lower, path, removed.reverse());
  return last;
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

/** Re-creates a directory's files and directories where nothing stands now; a name someone took keeps theirs. */
export async function restoreTree(
  lower: FileSystemProviderV1,
  path: WorkspacePath,
  entries: readonly ManifestEntry[],
): Promise<OverlayConflict | null> {
  await makeDirectory(lower, path);
  let conflict: OverlayConflict | null = null;
  for (const entry of sortManifest(entries)) {
    const inner = `${path}/${entry.path}` as WorkspacePath;
    if (entry.kind === 'directory') conflict = (await makeDirectory(lower, inner)) ?? conflict;
    else if (entry.kind === 'file') {
      const seen = await observe(lower, inner);
      if (seen.kind === 'file' && seen.sha256 === entry.sha256) continue;
      conflict = (await casWrite(lower, inner, entry.bytes ?? new Uint8Array(), { kind: 'missing' })) ?? conflict;
    }
  }
  return conflict === null ? null : { ...conflict, path };
}
