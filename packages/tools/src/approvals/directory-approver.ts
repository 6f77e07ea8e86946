import { LibosError, type Approver } from '@libos/core';
import type { ApprovalDirectory, PendingApproval } from './approval-directory.js';

/** Options of `createDirectoryApprover`. */
export interface DirectoryApproverOptions {
  /** How long a call waits for the person's answer (default 120 s). */
  readonly waitMs?: number;
  /** How many requests may wait in the directory at once (default 16); a call beyond them is not asked. */
  readonly maxPending?: number;
  /** How often a waiting call looks for its answer (default 250 ms). */
  readonly pollMs?: number;
  /** Where the approver says what the person should know: a request waiting, an answer file not believed. */
  readonly log?: (line: string) => void;
}

export const DEFAULT_PENDING_WAIT_MS = 120_000;
export const DEFAULT_MAX_PENDING = 16;

/**
 * An approver that asks through a pending-approvals directory: the call's request (the runtime's
 * escaped text, bound to the exact call by its tool, right, path, byte count and SHA-256) waits
 * there until a person answers with `libos approvals` or on the review page, the call is abandoned
 * (a cancel: `unavailable`), or `waitMs` passes (`approval_required`, saying so). An answer
 * approves that one call only: the request is removed when the call takes it, and a later call,
 * even with the same bytes, writes a new request. At most `maxPending` requests wait at once,
 * so an agent calling in a loop cannot fill the disk or the person's page.
 */
export function createDirectoryApprover(directory: ApprovalDirectory, options: DirectoryApproverOptions = {}): Approver {
  const waitMs = options.waitMs ?? DEFAULT_PENDING_WAIT_MS;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const pollMs = options.pollMs ?? 250;
  const log = options.log ?? (() => {});
  // Counting and adding happen one call at a time in this process, so the bound holds here exactly.
  let admissions: Promise<unknown> = Promise.resolve();

  const admit = (request: Parameters<Approver>[0]): Promise<PendingApproval> => {
    const admitted = admissions.then(async () => {
      const waiting = (await directory.list()).length;
      if (waiting >= maxPending) {
        throw new LibosError(
          'approval_required',
          `${waiting} approvals already wait for a person (at most ${maxPending}); this call was not added. Answer or let them expire, then retry.`,
        );
      }
      return directory.add(request, Date.now() + waitMs);
    });
    admissions = admitted.catch(() => undefined);
    return admitted;
  };

  return async (request, { signal }) => {
    if (signal?.aborted === true) return 'unavailable';
    const pending = await admit(request);
    log(`approval ${pending.id} waits for a person until ${pending.expires_at}: ${firstLine(pending.request.message)}`);
    try {
      const answer = await waitForAnswer(directory, pending, { waitMs, pollMs, log, ...(signal === undefined ? {} : { signal }) });
      if (answer === 'timeout') {
        throw new LibosError('approval_required', `no one answered approval ${pending.id} within ${Math.round(waitMs / 1000)} s.`);
      }
      log(`approval ${pending.id}: ${answer === 'unavailable' ? 'the call stopped waiting' : answer === 'approve' ? 'approved' : 'rejected'}`);
      return answer;
    } finally {
      // Taken, abandoned or timed out, the request is gone: no answer can reach another call.
      await directory.remove(pending.id);
    }
  };
}

/** Polls for the answer to `pending` until it comes, the signal aborts or the wait ends. */
function waitForAnswer(
  directory: ApprovalDirectory,
  pending: PendingApproval,
  options: { readonly waitMs: number; readonly pollMs: number; readonly log: (line: string) => void; readonly signal?: AbortSignal },
): Promise<'approve' | 'reject' | 'unavailable' | 'timeout'> {
  const deadline = Date.now() + options.waitMs;
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: 'approve' | 'reject' | 'unavailable' | 'timeout') => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abandoned);
      resolve(outcome);
    };
    const abandoned = () => finish('unavailable');
    options.signal?.addEventListener('abort', abandoned, { once: true });
    const look = async () => {
      const answer = await directory
        .answerTo(pending, (reason) => options.log(`approval ${pending.id}: an answer file was not believed and was removed: ${reason}`))
        .catch(() => undefined);
      if (options.signal?.aborted === true) return;
      if (answer !== undefined) return finish(answer);
      const left = deadline - Date.now();
      if (left <= 0) return finish('timeout');
      timer = setTimeout(() => void look(), Math.min(options.pollMs, left));
    };
    void look();
  });
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
