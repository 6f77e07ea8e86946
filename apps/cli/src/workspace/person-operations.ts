import { LibosError, escapeForDisplay } from '@libos/core';
import type { ApplyResult, DiscardResult, Overlay, RewindResult, UndoApplyResult } from '@libos/provider-overlay';
import { openAuditLog } from './audit-options.js';
import type { WorkspaceOptions } from './workspace-options.js';

/** The overlay operations a person runs, from a command or from the review page. */
export type PersonOperations = Pick<Overlay, 'changes' | 'diff' | 'history' | 'apply' | 'undoApply' | 'lastApply' | 'discard' | 'rewind' | 'fork'>;

type Changing = 'apply' | 'undo_apply' | 'discard' | 'rewind';

/**
 * The one way every app runs a person's overlay operations (the `libos apply` family and `libos
 * review` alike): reads go straight to the overlay; with `--audit FILE`, each operation that
 * changes something is recorded in the log before its answer, in a session of its own
 * (docs/audit.md). The log is opened per operation, so a server holding it (one writer per file)
 * refuses the operation, naming the file, before anything changes.
 */
export function personOperations(overlay: Overlay, options: WorkspaceOptions): PersonOperations {
  const recorded = async <Result>(
    operation: Changing,
    args: unknown,
    run: () => Promise<Result>,
    pathsOf: (result: Result) => readonly string[],
  ): Promise<Result> => {
    if (options.audit === undefined) return run();
    const log = await openAuditLog(options).catch((error: unknown) => {
      throw busyLog(error, options.audit?.file ?? '') ?? error;
    });
    if (log === undefined) return run();
    const session = await log.openSession({ provider: `overlay over ${options.provider}`, root: options.root });
    const started = performance.now();
    try {
      const result = await run();
      await session.recordOperation({
        operation,
        arguments: args,
        paths: pathsOf(result),
        result: { ok: true },
        durationMs: performance.now() - started,
      });
      return result;
    } catch (error) {
      const failure = LibosError.is(error) ? error : undefined;
      await session.recordOperation({
        operation,
        arguments: args,
        result: { ok: false, code: failure?.code ?? 'provider_failure', effect: failure?.effect ?? 'unknown' },
        durationMs: performance.now() - started,
      });
      throw error;
    } finally {
      await session.end();
      await log.close();
    }
  };
  return {
    changes: (changeOptions) => overlay.changes(changeOptions),
    diff: (diffOptions) => overlay.diff(diffOptions),
    history: () => overlay.history(),
    lastApply: () => overlay.lastApply(),
    // A fork changes neither the workspace nor this overlay: nothing to record.
    fork: (to) => overlay.fork(to),
    apply: (applyOptions) =>
      recorded(
        'apply',
        applyOptions ?? {},
        () => overlay.apply(applyOptions),
        (result: ApplyResult) => result.applied,
      ),
    undoApply: (id) =>
      recorded(
        'undo_apply',
        { apply_id: id },
        () => overlay.undoApply(id),
        (result: UndoApplyResult) => result.restored,
      ),
    discard: (discardOptions) =>
      recorded(
        'discard',
        discardOptions ?? {},
        () => overlay.discard(discardOptions),
        (result: DiscardResult) => result.discarded,
      ),
    rewind: (seq) =>
      recorded(
        'rewind',
        { seq },
        () => overlay.rewind(seq),
        (_result: RewindResult) => [],
      ),
  };
}

/**
 * A log another writer holds (the agent's server, one writer per log): the operation is refused
 * before anything changes, as a LibosError the page answers with a sentence (409), never a 500.
 */
function busyLog(error: unknown, file: string): LibosError | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!LibosError.is(cause, 'invalid_arguments') || cause.details?.reason !== 'writer_busy') return undefined;
  return new LibosError(
    'provider_failure',
    `The audit log ${escapeForDisplay(file)} is held by the agent's server while it runs, so this cannot be recorded there: nothing was changed. Stop the agent's server (or its client) and try again, or leave out --audit to act unrecorded.`,
    { effect: 'none', details: { reason: 'audit_log_busy' }, cause: error },
  );
}
