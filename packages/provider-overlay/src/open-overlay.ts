import { LibosError, ROOT_PATH } from '@libos/core';
import { applyChanges } from './person/apply-changes.js';
import { withDiskState } from './person/changes-on-disk.js';
import { diffChanges } from './person/diff-changes.js';
import { discardChanges } from './person/discard-changes.js';
import { forkOverlay } from './person/fork-overlay.js';
import { listChanges } from './person/list-changes.js';
import { createHistory } from './state/call-history.js';
import { createRowStatements } from './state/entry-rows.js';
import { closedError, createExclusive, type OverlayContext } from './overlay-context.js';
import { createOverlayProvider } from './agent/overlay-provider.js';
import type { Overlay, OverlayOptions } from './overlay-types.js';
import { recoverApplies } from './person/recover-apply.js';
import { guardedLower } from './person/state-path-guard.js';
import { openStateDatabase } from './state/state-database.js';
import { lastApply, undoApply } from './person/undo-apply.js';

/** The open overlays' contexts, for the package's own tests (fixtures that act below the provider). */
export const overlayContexts = new WeakMap<object, OverlayContext>();

/**
 * Opens an overlay over `lower` with its state in `state` (docs/overlay.md): `provider` is the
 * agent's view, the other methods are the person's. An apply a crash interrupted is finished or
 * rolled back before the first operation.
 */
export async function openOverlay(options: OverlayOptions): Promise<Overlay> {
  const lowerRoot = options.lowerRoot ?? options.lower.hostPath?.(ROOT_PATH);
  const state = openStateDatabase(options.state, lowerRoot, options.opener);
  const rows = createRowStatements(state.db);
  const history = createHistory(state.db, rows);
  let agentClosed = false;
  let closed = false;
  const exclusive = createExclusive();
  const anyRunning = state.db.prepare("SELECT 1 AS one FROM applies WHERE state IN ('running', 'committing') LIMIT 1");
  const context: OverlayContext = {
    lower: options.lower,
    state,
    rows,
    history,
    exclusive,
    checkOpen(path) {
      if (agentClosed || closed) throw closedError(path);
    },
    async recover() {
      if (anyRunning.get() !== undefined) await recoverApplies(personContext);
    },
    now: () => new Date().toISOString(),
  };
  // The person's operations act on paths read back from the state file: each is judged again
  // before the lower is asked (docs/overlay.md, "apply and its journal").
  const personContext: OverlayContext = { ...context, lower: guardedLower(options.lower) };
  const person = <T>(body: () => Promise<T> | T): Promise<T> => {
    if (closed)
      return Promise.reject(new LibosError('provider_failure', 'The overlay is closed.', { effect: 'none', details: { reason: 'closed' } }));
    return exclusive(async () => {
      await context.recover();
      return body();
    });
  };
  const provider = createOverlayProvider(
    context,
    async () => {
      agentClosed = true;
    },
    options.state !== ':memory:',
  );
  overlayContexts.set(provider, context);
  await person(() => undefined);
  return {
    provider,
    changes: (changeOptions) =>
      person(async () => {
        const page = listChanges(personContext, changeOptions);
        return changeOptions?.checkDisk === true ? withDiskState(personContext, page) : page;
      }),
    diff: (diffOptions) => person(() => diffChanges(personContext, diffOptions)),
    apply: (applyOptions) => person(() => applyChanges(personContext, applyOptions)),
    undoApply: (applyId) => person(() => undoApply(personContext, applyId)),
    lastApply: () => person(() => lastApply(personContext)),
    discard: (discardOptions) => person(() => discardChanges(personContext, discardOptions)),
    history: () => person(() => ({ calls: history.list() })),
    fork: (to) => person(() => forkOverlay(personContext, to, lowerRoot)),
    rewind: (seq) =>
      person(() => {
        const floor = history.floor();
        if (!Number.isInteger(seq) || seq < floor) {
          throw new LibosError(
            'invalid_arguments',
            `rewind takes a call number of at least ${floor} (calls before an apply or a discard are gone).`,
            {
              details: { seq, floor },
            },
          );
        }
        const last = history.list().at(-1)?.seq ?? floor;
        if (seq > last) throw new LibosError('invalid_arguments', `There is no call ${seq}; the last is ${last}.`, { details: { seq, last } });
        return { rewound: state.write(() => history.rewindTo(seq)) };
      }),
    close: async () => {
      if (closed) return;
      await exclusive(async () => undefined);
      closed = true;
      agentClosed = true;
      state.close();
    },
  };
}
