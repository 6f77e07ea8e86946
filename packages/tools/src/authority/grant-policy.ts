import type { AccessRequest, Grant, Permit, Right, TargetKind, WorkspacePath } from '@libos/core';
import { deniedError } from './authority-errors.js';
import { createGrantMatcher, type IndexedGrant } from './grant-matcher.js';
import { createUsesLedger } from './uses-ledger.js';

/** What the grants say about one request that they do not deny. */
export interface GrantDecision {
  /** True when an `ask` grant decided, so the approver must agree first. */
  readonly ask: boolean;
  /** Spends the deciding grants' uses (see UsesLedger); call after any approval. */
  readonly permit: Permit;
}

/** Applies a list of grants (CONTRACT.md section 5) to requests. */
export interface GrantPolicy {
  /** Throws `denied` when no grant matches, a deny grant matches, or the deciding grants' uses are spent. */
  decide(request: AccessRequest): GrantDecision;
}

/** Builds the policy of a config's `grants`; its uses ledger lives as long as the policy. */
export function createGrantPolicy(grants: readonly Grant[]): GrantPolicy {
  const matcher = createGrantMatcher(grants);
  const ledger = createUsesLedger(grants);
  const limited = grants.some((grant) => grant.uses !== undefined);

  // The grants that would decide a request the policy does not deny outright.
  const decidingFor = (right: Right, path: WorkspacePath, target: TargetKind) => {
    const matching = matcher.matching(right, path, target);
    if (matching.length === 0 || matching.some((entry) => entry.grant.mode === 'deny')) return undefined;
    const asks = matching.filter((entry) => entry.grant.mode === 'ask');
    return { ask: asks.length > 0, deciding: asks.length > 0 ? asks : matching };
  };

  return {
    decide(request) {
      const found = decidingFor(request.right, request.path, request.target);
      if (found === undefined) throw deniedError(request.right, request.path);
      const { ask, deciding } = found;
      // Checked now too, so the approver is never asked about a call that could not spend a use.
      if (limited && !ledger.available(deciding)) throw deniedError(request.right, request.path);
      const ids = new Set(deciding.map((entry) => entry.id));
      // Below an authorized root, an ask grant counts as approved and a limited grant as spent only
      // when it is one this very call was decided by; anything else would need its own approval or use.
      const covers = (right: Right, path: WorkspacePath, target: TargetKind): boolean => {
        const other = decidingFor(right, path, target);
        if (other === undefined) return false;
        if (other.ask) return other.deciding.every((entry) => ids.has(entry.id));
        return other.deciding.some((entry) => entry.grant.uses === undefined || ids.has(entry.id));
      };
      return { ask, permit: limited ? spendOnce(deciding, ledger.spend, request, covers) : { spend() {}, covers } };
    },
  };
}

function spendOnce(
  deciding: readonly IndexedGrant[],
  spend: (deciding: readonly IndexedGrant[]) => boolean,
  request: AccessRequest,
  covers: Permit['covers'],
): Permit {
  let spent = false;
  return {
    spend() {
      // One permit is one call: spending it again costs nothing more.
      if (spent) return;
      if (!spend(deciding)) throw deniedError(request.right, request.path);
      spent = true;
    },
    covers,
  };
}
