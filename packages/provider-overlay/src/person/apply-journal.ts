import { randomBytes } from 'node:crypto';
import { LibosError } from '@libos/core';
import type { EntryRow, StoredHead } from '../state/entry-rows.js';
import { decodeRow, readStatePath } from '../state/state-path.js';
import type { ManifestEntry } from '../agent/lower-files.js';
import { lowerManifestStore } from '../state/manifest-store.js';
import { leftByMerge, settleMerged } from './merge-step.js';
import type { OverlayContext } from '../overlay-context.js';
import type { StepData, StepPlan } from './apply-steps.js';

/** Applies in flight in this process, so recovery never takes over a live one. */
export const activeApplies = new Set<string>();

/** One journaled step of an apply, as stored. */
export interface JournalItem {
  readonly ord: number;
  readonly state: 'planned' | 'done' | 'conflict' | 'skipped' | 'rolled_back' | 'undone';
  readonly data: StepData;
  /** The overlay row the step came from, to take out on success and put back on undo. */
  readonly row: EntryRow;
}

/** A journaled step whose path no libOS call could have stored (a crafted journal): settled without asking the lower. */
export interface RefusedItem {
  readonly ord: number;
  readonly state: JournalItem['state'];
  readonly refusal: LibosError;
}

/** A fresh apply id. */
export function newApplyId(): string {
  return `apply_${randomBytes(8).toString('hex')}`;
}

/** Writes the apply and all its steps before the first lower call, in the caller's transaction. */
export function journalApply(context: OverlayContext, applyId: string, mode: string, items: readonly JournalItem[]): void {
  const { db } = context.state;
  db.prepare('INSERT INTO applies (apply_id, mode, state, at, pid) VALUES (?, ?, ?, ?, ?)').run(applyId, mode, 'running', context.now(), process.pid);
  const item = db.prepare(
    'INSERT INTO apply_items (apply_id, ord, path, state, plan, new_content, before_content, row_image, row_content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const tree = db.prepare('INSERT INTO apply_tree (apply_id, ord, path, kind, content) VALUES (?, ?, ?, ?, ?)');
  for (const entry of items) {
    // No hash state in the image (a Buffer would not survive JSON): the next append computes it again.
    const { content, hash_state: _state, ...head } = entry.row;
    item.run(
      applyId,
      entry.ord,
      entry.data.plan.path,
      entry.state,
      JSON.stringify(entry.data.plan),
      entry.data.newBytes === null ? null : Buffer.from(entry.data.newBytes),
      entry.data.beforeBytes === null ? null : Buffer.from(entry.data.beforeBytes),
      JSON.stringify(head),
      content,
    );
    for (const node of entry.data.beforeTree) {
      tree.run(
        applyId,
        entry.ord,
        node.path,
        JSON.stringify({ kind: node.kind, sha256: node.sha256, size: node.size }),
        node.bytes === undefined ? null : Buffer.from(node.bytes),
      );
    }
  }
}

/** The steps of an apply, in order. */
export function loadJournal(context: OverlayContext, applyId: string): Array<JournalItem | RefusedItem> {
  const { db } = context.state;
  const items = db
    .prepare<
      [string],
      {
        ord: number;
        state: JournalItem['state'];
        plan: string;
        new_content: Buffer | null;
        before_content: Buffer | null;
        row_image: string;
        row_content: Buffer | null;
      }
    >('SELECT ord, state, plan, new_content, before_content, row_image, row_content FROM apply_items WHERE apply_id = ? ORDER BY ord')
    .all(applyId);
  const tree = db.prepare<[string, number], { path: string; kind: string; content: Buffer | null }>(
    'SELECT path, kind, content FROM apply_tree WHERE apply_id = ? AND ord = ?',
  );
  return items.map((item): JournalItem | RefusedItem => {
    // The one decoding of a journaled path: the plan's, which its row image shares.
    const stored = JSON.parse(item.plan) as Omit<StepPlan, 'path'> & { readonly path: string };
    const path = readStatePath(stored.path);
    if (path instanceof LibosError) return { ord: item.ord, state: item.state, refusal: path };
    return {
      ord: item.ord,
      state: item.state,
      row: { ...decodeRow(JSON.parse(item.row_image) as StoredHead), content: item.row_content },
      data: {
        plan: { ...stored, path },
        newBytes: item.new_content === null ? null : new Uint8Array(item.new_content),
        beforeBytes: item.before_content === null ? null : new Uint8Array(item.before_content),
        beforeTree: tree.all(applyId, item.ord).map((node): ManifestEntry => {
          const meta = JSON.parse(node.kind) as { kind: ManifestEntry['kind']; sha256: string | null; size: number | null };
          return {
            path: node.path,
            kind: meta.kind,
            sha256: meta.sha256,
            size: meta.size,
            ...(node.content === null ? {} : { bytes: new Uint8Array(node.content) }),
          };
        }),
      },
    };
  });
}

/** Marks one step, in the caller's transaction. */
export function markItem(context: OverlayContext, applyId: string, ord: number, state: JournalItem['state']): void {
  context.state.db.prepare('UPDATE apply_items SET state = ? WHERE apply_id = ? AND ord = ?').run(state, applyId, ord);
}

/** Marks the whole apply, in the caller's transaction. */
export function markApply(context: OverlayContext, applyId: string, state: string): void {
  context.state.db.prepare('UPDATE applies SET state = ? WHERE apply_id = ?').run(state, applyId);
}

/**
 * Takes a landed step's change out of the overlay. If the agent changed the path again meanwhile,
 * its newer change stays, rebased on what now lies on disk, so a later apply compares against that.
 */
export function settleRow(context: OverlayContext, item: JournalItem): void {
  if (item.data.plan.merge !== undefined) {
    settleMerged(context, item, item.data.plan.merge);
    return;
  }
  const row = context.rows.get(item.row.path);
  if (row === undefined) return;
  const same =
    row.kind === item.row.kind && row.sha256 === item.row.sha256 && row.base_kind === item.row.base_kind && row.base_sha256 === item.row.base_sha256;
  if (same) {
    context.rows.remove(row.path);
    return;
  }
  const { put } = item.data.plan;
  if (put === null) context.rows.put({ ...row, base_kind: 'missing', base_sha256: null, base_size: null, base_files: null, manifest_id: null });
  else if (put.kind === 'file' && (row.lower_bytes ?? 0) > 0 && row.lower_bytes === item.row.lower_bytes) {
    // Appended to again meanwhile: what landed is the new base, left on the lower; the row keeps the rest.
    const landed = item.data.newBytes?.length ?? 0;
    context.rows.dropBefore(row.path, landed);
    context.rows.putHead({
      ...row,
      base_kind: 'file',
      base_sha256: put.sha256,
      base_size: landed,
      base_files: null,
      manifest_id: null,
      lower_bytes: landed,
    });
  } else if (put.kind === 'file')
    context.rows.put({
      ...row,
      base_kind: 'file',
      base_sha256: put.sha256,
      base_size: item.data.newBytes?.length ?? 0,
      base_files: null,
      manifest_id: null,
    });
  else {
    const base = lowerManifestStore(context, {
      base_kind: 'directory',
      base_sha256: null,
      base_size: null,
      base_files: 0,
      manifest_id: null,
      manifest: [],
    });
    context.rows.put({ ...row, ...base });
  }
}

/** Puts an undone step's change back into the overlay, unless the agent has made a newer one there. */
export function restoreRow(context: OverlayContext, item: JournalItem): void {
  const now = context.rows.head(item.row.path);
  if (now === undefined || leftByMerge(now, item)) context.rows.put(item.row);
}
