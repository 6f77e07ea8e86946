import { LibosError, type Right, type WorkspacePath } from '@libos/core';

const verbs: Readonly<Record<Right, string>> = { read: 'Reading', write: 'Writing', delete: 'Deleting' };

// Every refusal names only the right and the canonical path: the engine never sees the filesystem,
// so nothing here can differ between an existing target and a missing one.
function refusal(code: 'denied' | 'approval_required' | 'approval_rejected', right: Right, path: WorkspacePath, tail: string) {
  return new LibosError(code, `${verbs[right]} ${JSON.stringify(path)} ${tail}.`, { details: { right, path } });
}

/**
 * `denied`: no grant gives the right, a deny grant matches, or the grant's uses are spent. `reason`
 * is the deciding deny grant's own (config `reason`), said after the refusal and kept in `details`.
 */
export function deniedError(right: Right, path: WorkspacePath, reason?: string): LibosError {
  if (reason === undefined) return refusal('denied', right, path, 'is not permitted');
  return new LibosError('denied', `${verbs[right]} ${JSON.stringify(path)} is not permitted: ${reason}.`, { details: { right, path, reason } });
}

/**
 * `approval_required`: an ask grant matched and no approval came. `reason` is the approver's own
 * account of why (a pending approval no one answered in time), said after the refusal and kept in
 * `details`; like the refusal itself it says nothing about the path's state.
 */
export function approvalRequiredError(right: Right, path: WorkspacePath, reason?: string): LibosError {
  if (reason === undefined) return refusal('approval_required', right, path, 'needs approval, and none was given');
  return new LibosError('approval_required', `${verbs[right]} ${JSON.stringify(path)} needs approval, and none was given: ${reason}`, {
    details: { right, path, reason },
  });
}

/** `approval_rejected`: the approver refused the call. */
export function approvalRejectedError(right: Right, path: WorkspacePath): LibosError {
  return refusal('approval_rejected', right, path, 'was rejected by the approver');
}

/**
 * `approval_required`: an edit whose change cannot be shown whole within the preview bounds. No one
 * is asked: showing a part as if it were the whole would let an approval hide what it approves.
 */
export function unshowableChangeError(right: Right, path: WorkspacePath, reason: string): LibosError {
  return refusal(
    'approval_required',
    right,
    path,
    `needs approval, but the change cannot be shown whole for approval (${reason}); nothing was changed. Split it into smaller edits`,
  );
}
