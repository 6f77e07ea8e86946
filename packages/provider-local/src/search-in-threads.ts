import { closeSync } from 'node:fs';
import { childPath, pathSegments } from '@libos/core';
import type { TreeSearchAnswer, TreeSearchEntry, TreeSearchQuery, WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { foldedStrings } from './describe-entry.js';
import { shownName } from './listed-names.js';
import type { MountRoots } from './mount-roots.js';
import type { OperationContext } from './operation-context.js';
import { unpackEntries } from './packed-entries.js';
import { type ScanOutcome, type ScanTask, receivedFailure } from './scan-directory-task.js';
import { runScan, searchThreadStats } from './search-threads.js';
import { walk } from './walk.js';

/** A directory held open (O_PATH) while directories listed in it wait for their scan. */
interface Holder {
  readonly fd: number;
  waiting: number;
  /** The search's own root handle, released by the search, never by its last child. */
  readonly root: boolean;
}

interface Pending {
  readonly parent: Holder;
  readonly raw: string | null;
  readonly path: WorkspacePath;
}

/**
 * `searchTree` over the process's search threads: each directory is one task (`scanDirectoryTask`),
 * queued in turn with every other search's, and the directories it lists become tasks in their
 * turn, newest first so the handles held stay near the tree's depth. A handle is closed only once
 * every task naming a directory inside it has ended, so no fd number is ever reused under a thread
 * still resolving names in it. The entry budget, the carried bytes and the signal are checked as
 * answers come in; on a stop the search waits for its tasks in flight (one directory each) and
 * closes what it holds.
 */
export async function searchInThreads(
  context: OperationContext,
  path: WorkspacePath,
  query: TreeSearchQuery,
  mounts: MountRoots | null,
): Promise<{ answer: TreeSearchAnswer; mounts: MountRoots | null }> {
  const { directory } = walk(context, pathSegments(path));
  const owner = {};
  const identities = mounts === null ? null : [...mounts.identities];
  const entries: TreeSearchEntry[] = [];
  const root: Holder = { fd: directory.fd, waiting: 0, root: true };
  const queue: Pending[] = [{ parent: root, raw: null, path }];
  const running = new Set<Promise<void>>();
  let carried = 0;
  let stop: { readonly error: unknown } | 'too_many' | undefined;
  // Tasks of this search in flight at once: enough to keep every thread busy, few enough that a
  // search's handles and memory stay bounded.
  const foldedNeedles = foldedStrings(query.foldedNeedles);
  const inFlight = Math.max(2, searchThreadStats().maxThreads * 2);

  const release = (holder: Holder) => {
    if (--holder.waiting === 0 && !holder.root) closeSync(holder.fd);
  };
  const settle = (pending: Pending, outcome: ScanOutcome) => {
    if (outcome.kind === 'done' && outcome.fd !== -1 && pending.raw !== null) {
      // This directory's handle stays open for the directories listed in it, or closes now on a stop.
      const holder: Holder = { fd: outcome.fd, waiting: 1, root: false };
      if (stop === undefined) for (const raw of outcome.below) queue.push({ parent: holder, raw, path: childPath(pending.path, shownName(raw)) });
      holder.waiting += stop === undefined ? outcome.below.length : 0;
      release(holder);
    } else if (outcome.kind === 'done' && outcome.fd !== -1 && stop === undefined) {
      for (const raw of outcome.below) {
        root.waiting++;
        queue.push({ parent: root, raw, path: childPath(pending.path, shownName(raw)) });
      }
    }
    if (stop !== undefined) return;
    if (outcome.kind === 'too_many') stop = 'too_many';
    else if (outcome.kind === 'failed') stop = { error: receivedFailure(outcome.failure) };
    else if (outcome.kind === 'done') {
      const found = unpackEntries(pending.path, outcome.entries);
      if (entries.length + found.length > query.maxEntries) stop = 'too_many';
      for (const entry of found) {
        // Tasks run side by side, each with what was left when it started: the budget holds for the whole answer here.
        const bytes = entry.read?.bytes.length ?? 0;
        if (bytes > 0 && carried + bytes > query.maxCarriedBytes) {
          const { read: _dropped, ...without } = entry;
          entries.push(without);
        } else {
          carried += bytes;
          entries.push(entry);
        }
      }
    }
  };
  const launch = (pending: Pending) => {
    const task: ScanTask = {
      parentFd: pending.parent.fd,
      raw: pending.raw,
      path: pending.path,
      procFdDirectory: context.paths.procFdDirectory,
      rootDev: context.root.dev,
      rootMountId: context.root.mountId,
      identities,
      needles: query.needles,
      foldedNeedles,
      alwaysNames: query.alwaysNames,
      maxBytes: query.maxBytes,
      maxEntries: query.maxEntries - entries.length,
      maxCarriedBytes: query.maxCarriedBytes - carried,
    };
    const done = runScan(owner, task)
      .then(
        (outcome) => settle(pending, outcome),
        (error: unknown) => {
          stop ??= { error };
        },
      )
      .finally(() => {
        running.delete(done);
        if (pending.raw !== null) release(pending.parent);
      });
    running.add(done);
  };

  try {
    while (queue.length > 0 || running.size > 0) {
      if (stop === undefined) {
        try {
          checkSignal(context.signal, path);
        } catch (error) {
          stop = { error };
        }
      }
      while (stop === undefined && queue.length > 0 && running.size < inFlight) launch(queue.pop()!);
      if (stop !== undefined) for (const pending of queue.splice(0)) release(pending.parent);
      if (running.size > 0) await Promise.race(running);
    }
  } finally {
    directory.release();
  }
  if (stop === 'too_many') return { answer: { complete: false, entries: [] }, mounts };
  if (stop !== undefined) throw stop.error;
  return { answer: { complete: true, entries }, mounts };
}
