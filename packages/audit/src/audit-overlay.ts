import { LibosError } from '@libos/core';
import type { FileAuditLog, OverlayOperation } from './file-audit-log.js';
import { inOverlaySession, type OverlaySessionContext } from './record-overlay-operation.js';

/**
 * The operations of a person's overlay that change something, as `@libos/provider-overlay`'s
 * `Overlay` has them (its results name the paths each changed). Reads (changes, diff, history,
 * lastApply) pass through unrecorded. An apply or a discard by hunk is the same operation with
 * `hunks` among its arguments, so its record is an apply's or a discard's.
 */
export interface AuditableOverlay {
  apply(options?: never): Promise<{ readonly applied: readonly string[]; readonly conflicts?: readonly unknown[] }>;
  undoApply(applyId: string): Promise<{ readonly restored: readonly string[]; readonly conflicts?: readonly unknown[] }>;
  discard(options?: never): Promise<{ readonly discarded: readonly string[]; readonly conflicts?: readonly unknown[] }>;
  rewind(seq: number): Promise<unknown>;
  /**
   * Copies the agent's changes into a new state file (an overlay that has it): the workspace is
   * untouched, but the changes now live in a second file a person may apply, so it is recorded.
   */
  fork?(to: string): Promise<unknown>;
}

/** Options of `auditOverlay`. */
export interface AuditOverlayOptions {
  /**
   * Opens the log for one operation, before the operation runs; undefined leaves that operation
   * unrecorded. Opened per operation (other writers, the agent's server, may write it meanwhile),
   * so a log that cannot be opened refuses the operation, by this promise's rejection, before
   * anything changes.
   */
  readonly openLog: () => Promise<FileAuditLog | undefined>;
  /** What each session records as served, e.g. `overlay over local` (default `overlay`). */
  readonly provider?: string;
  /** The workspace root the sessions record. */
  readonly root?: string;
}

type Recorded = OverlayOperation['operation'];

/**
 * An operation that met conflicts did not do what it was asked, so it is not recorded as plain ok
 * (docs/audit.md): `content_conflict`, effect `none` when it changed nothing, `unknown` when it
 * changed some paths (those its record names) and left the others.
 */
function outcomeOf(result: unknown, changed: readonly string[]): OverlayOperation['result'] {
  const conflicts = typeof result === 'object' && result !== null && 'conflicts' in result ? result.conflicts : undefined;
  if (!Array.isArray(conflicts) || conflicts.length === 0) return { ok: true };
  return { ok: false, code: 'content_conflict', effect: changed.length === 0 ? 'none' : 'unknown' };
}

/**
 * `overlay` with every operation a person runs that changes something recorded in the audit log
 * before its answer (docs/audit.md), each in a session of its own: its arguments (hashed), the
 * paths it changed, and its outcome; a failure is recorded with its code and effect, then thrown.
 * Everything else of `overlay` is `overlay`'s own. Apps (a command, a review page, an embedder's
 * approval channel) give the person these, so no path of theirs runs an operation unrecorded.
 */
export function auditOverlay<Overlay extends AuditableOverlay>(overlay: Overlay, options: AuditOverlayOptions): Overlay {
  const context: OverlaySessionContext = {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.root === undefined ? {} : { root: options.root }),
  };
  const recorded = async <Result>(operation: Recorded, args: unknown, run: () => Promise<Result>, pathsOf: (result: Result) => readonly string[]) => {
    const log = await options.openLog();
    if (log === undefined) return run();
    try {
      return await inOverlaySession(log, context, async (session) => {
        const started = performance.now();
        try {
          const result = await run();
          const paths = pathsOf(result);
          await session.recordOperation({
            operation,
            arguments: args,
            paths,
            result: outcomeOf(result, paths),
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
        }
      });
    } finally {
      await log.close();
    }
  };
  const audited: AuditableOverlay = {
    apply: (applyOptions) =>
      recorded(
        'apply',
        applyOptions ?? {},
        () => overlay.apply(applyOptions),
        (result) => result.applied,
      ),
    undoApply: (applyId) =>
      recorded(
        'undo_apply',
        { apply_id: applyId },
        () => overlay.undoApply(applyId),
        (result) => result.restored,
      ),
    discard: (discardOptions) =>
      recorded(
        'discard',
        discardOptions ?? {},
        () => overlay.discard(discardOptions),
        (result) => result.discarded,
      ),
    rewind: (seq) =>
      recorded(
        'rewind',
        { seq },
        () => overlay.rewind(seq),
        () => [],
      ),
  };
  const fork = overlay.fork?.bind(overlay);
  // A fork changes no workspace path: its record names none, and its arguments (hashed) the new file.
  if (fork !== undefined)
    audited.fork = (to) =>
      recorded(
        'fork',
        { to },
        () => fork(to),
        () => [],
      );
  // Everything else (reads, close, the provider) is the overlay's own, reached through the prototype.
  return Object.assign(Object.create(overlay) as Overlay, audited);
}
