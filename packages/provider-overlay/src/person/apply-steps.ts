import { LibosError, type FileSystemProviderV1, type WorkspacePath } from '@libos/core';
import { casDeleteTree, dropTree, makeDirectoryIfFree, returnTree, rewriteTree } from './delete-tree.js';
import {
  asideName,
  casDeleteFile,
  casWrite,
  conflictOf,
  dropAside,
  holds,
  observe,
  returnAside,
  settleAside,
  type Expectation,
} from './lower-cas.js';
import type { ManifestEntry } from '../agent/lower-files.js';
import type { MergePlan } from './merge-step.js';
import type { OverlayConflict } from '../overlay-types.js';

/** What one apply step changes on disk: remove the base (if any), then put the agent's entry (if any). */
export interface StepPlan {
  readonly path: WorkspacePath;
  /** What the lower held when the change was made. */
  readonly base:
    | { readonly kind: 'file'; readonly sha256: string; readonly mode?: number }
    | { readonly kind: 'missing' }
    | { readonly kind: 'directory'; readonly manifest_id: number };
  /**
   * What lands: the agent's file (by hash), a directory, or nothing (a deletion). A file's `mode` is
   * the one its row names (docs/overlay.md, "Modes"), absent to keep the lower's; a base file's
   * `mode` is what an undo gives back. Journals from before modes carry neither.
   */
  readonly put: { readonly kind: 'file'; readonly sha256: string; readonly mode?: number } | { readonly kind: 'directory' } | null;
  /** Names this step's aside files, unique per apply and step. */
  readonly tag: string;
  /** A merged step (docs/overlay.md, "Merge"): `base` is the person's file it merged onto. */
  readonly merge?: MergePlan;
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
  const seen = await observe(lower, plan.path);
  if (plan.put?.kind === 'directory') return seen.kind === 'directory';
  return holds(lower, plan.path, afterOf(plan), seen);
}

/** Where a step's base file waits while it is being deleted (and, in an all-or-nothing apply, until it commits). */
export function baseAside(plan: StepPlan): WorkspacePath {
  return asideName(plan.path, plan.tag);
}

/** Where the agent's file waits while a roll back or an undo deletes it. */
function putAside(plan: StepPlan): WorkspacePath {
  return asideName(plan.path, `${plan.tag}-undo`);
}

/** Whether the step removes a base file (rather than writing over it in place). */
function removesBaseFile(plan: StepPlan): boolean {
  return plan.base.kind === 'file' && plan.put?.kind !== 'file';
}

/** Removes the base from disk by compare-and-swap: a file by hash, a directory by its manifest; `hold` keeps it aside. */
async function removeBase(lower: FileSystemProviderV1, data: StepData, hold: boolean): Promise<OverlayConflict | null> {
  const path = data.plan.path;
  const { base } = data.plan;
  if (base.kind === 'missing') return null;
  if (base.kind === 'file') {
    if (!removesBaseFile(data.plan)) return null; // replaced in place by the guarded write
    return casDeleteFile(lower, path, base.sha256, baseAside(data.plan), hold);
  }
  return casDeleteTree(lower, path, data.beforeTree, data.plan.tag, hold);
}

/**
 * Carries one step out on disk; returns the conflict when the disk no longer holds the base. With
 * `hold` (all or nothing) a removed base waits aside until the apply commits, so a roll back puts
 * the very files back, and nothing but this step's own aside names decides it.
 */
export async function forward(lower: FileSystemProviderV1, data: StepData, hold: boolean): Promise<OverlayConflict | null> {
  const path = data.plan.path;
  const removed = await removeBase(lower, data, hold);
  if (removed !== null) return removed;
  const { put, base } = data.plan;
  if (put === null) return null;
  if (put.kind === 'directory') return makeDirectoryIfFree(lower, path);
  const expected: Expectation = base.kind === 'file' && put.kind === 'file' ? { kind: 'file', sha256: base.sha256 } : { kind: 'missing' };
  return casWrite(lower, path, data.newBytes ?? new Uint8Array(), expected, put.mode);
}

/** Puts back a base the step holds aside (its removal was cut short, or the apply is rolled back). */
export async function returnBase(lower: FileSystemProviderV1, data: StepData): Promise<void> {
  const { plan } = data;
  if (removesBaseFile(plan) && plan.base.kind === 'file') await returnAside(lower, plan.path, plan.base.sha256, baseAside(plan));
  if (plan.base.kind === 'directory') await returnTree(lower, plan.path, data.beforeTree, plan.tag);
}

/** Unlinks a base the step holds aside: the apply committed, or the name now holds something newer. */
export async function dropBase(lower: FileSystemProviderV1, data: StepData): Promise<void> {
  const { plan } = data;
  if (removesBaseFile(plan) && plan.base.kind === 'file') await dropAside(lower, plan.base.sha256, baseAside(plan));
  if (plan.base.kind === 'directory') await dropTree(lower, plan.path, data.beforeTree, plan.tag);
}

/**
 * Puts back on disk what a done step replaced, by compare-and-swap against what the step left:
 * the agent's entry is taken away only if it is still the agent's, and a path changed since is a
 * conflict that keeps its bytes. `fromAsides` (a roll back before the apply committed): the base
 * comes back from the files held aside, moved back only where the name is free; otherwise (an
 * undo) it is written again from the journal, by exclusive creation.
 */
export async function backward(lower: FileSystemProviderV1, data: StepData, fromAsides: boolean): Promise<OverlayConflict | null> {
  const path = data.plan.path;
  const { put, base } = data.plan;
  const after = afterOf(data.plan);
  let conflict: OverlayConflict | null = null;
  if (put?.kind === 'file') {
    if (base.kind === 'file') return casWrite(lower, path, data.beforeBytes ?? new Uint8Array(), after, base.mode);
    await settlePut(lower, data);
    conflict = await casDeleteFile(lower, path, put.sha256, putAside(data.plan));
  } else if (put?.kind === 'directory') {
    try {
      await lower.deleteDirectory(path, { recursive: false, missingOk: true });
    } catch (error) {
      if (!LibosError.is(error, 'directory_not_empty', 'not_a_directory', 'symlink_refused')) throw error;
      conflict = { ...conflictOf(path, after, await observe(lower, path)), reason: 'changed_on_disk' };
    }
  } else if (!fromAsides) {
    const seen = await observe(lower, path);
    if (seen.kind !== 'missing') conflict = conflictOf(path, after, seen);
  }
  if (fromAsides) {
    // The name holds something newer than the agent's entry: it stays, and the held base goes.
    if (conflict !== null && (await standsInTheWay(lower, data))) {
      await dropBase(lower, data);
      return conflict;
    }
    await returnBase(lower, data);
    return null;
  }
  if (conflict !== null) return conflict;
  // The deleted file comes back with the mode it had, not the lower's default (a 0600 key stays 0600).
  if (base.kind === 'file') return casWrite(lower, path, data.beforeBytes ?? new Uint8Array(), { kind: 'missing' }, base.mode);
  if (base.kind === 'directory') return rewriteTree(lower, path, data.beforeTree);
  return null;
}

// What keeps the agent's entry from being taken away is someone else's, not a remnant of the base
// (a directory whose removal a crash cut short) nor a name already cleared (a roll back cut short).
async function standsInTheWay(lower: FileSystemProviderV1, data: StepData): Promise<boolean> {
  const seen = await observe(lower, data.plan.path);
  if (seen.kind === 'missing') return false;
  return !(data.plan.base.kind === 'directory' && seen.kind === 'directory');
}

/** Finishes the removal of the agent's file that a roll back or an undo had begun when it was cut short. */
export async function settlePut(lower: FileSystemProviderV1, data: StepData): Promise<void> {
  const { put, base } = data.plan;
  if (put?.kind === 'file' && base.kind !== 'file') await settleAside(lower, data.plan.path, put.sha256, putAside(data.plan));
}

/** Whether the lower already shows what the step replaced (an undo that ran before a crash). */
export async function showsBefore(lower: FileSystemProviderV1, data: StepData): Promise<boolean> {
  return holds(lower, data.plan.path, beforeOf(data));
}
