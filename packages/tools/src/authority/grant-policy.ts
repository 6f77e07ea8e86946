import type { AccessRequest, Grant, Permit } from '@libos/core';
import { deniedError } from './authority-errors.js';
import { createGrantMatcher, type IndexedGrant } from './grant-matcher.js';
import type { SharedUsesLedger } from './shared-uses-ledger.js';
import { createUsesLedger } from './uses-ledger.js';

/** What the grants say about one request that they do not deny. */
export interface GrantDecision {
  /** True when an `ask` grant decided, so the approver must agree first. */
  readonly ask: boolean;
  /**
   * The call's permit, made after any approval. With the local ledger, `spend()` spends the
   * deciding grants' uses; with a shared ledger the uses are taken here, atomically in the store
   * (rejecting `denied` when none is left), `spend()` keeps them and `release()` gives them back
   * when the call ended before `spend()`.
   */
  permit(): Promise<Permit>;
}

/** Applies a list of grants (CONTRACT.md section 5) to requests. */
export interface GrantPolicy {
  /** Throws or rejects `denied` when no grant matches, a deny grant matches, or the deciding grants' uses are spent. */
  decide(request: AccessRequest): Promise<GrantDecision>;
}

const unlimited: Permit = { spend() {} };

/**
 * Builds the policy of a config's `grants`. Uses are counted in `shared` when given (a config with
 * `policy_id`), else in a ledger that lives as long as the policy.
 */
export function createGrantPolicy(grants: readonly Grant[], shared?: SharedUsesLedger): GrantPolicy {
  const matcher = createGrantMatcher(grants);
  const ledger = createUsesLedger(grants);
  const limited = grants.some((grant) => grant.uses !== undefined);

  return {
    async decide(request) {
      const matching = matcher.matching(request.right, request.path, request.target);
      if (matching.length === 0 || matching.some((entry) => entry.grant.mode === 'deny')) {
        throw deniedError(request.right, request.path);
      }
      const asks = matching.filter((entry) => entry.grant.mode === 'ask');
      const deciding = asks.length > 0 ? asks : matching;
      const ask = asks.length > 0;
      if (!limited) return { ask, permit: async () => unlimited };
      // Checked now too, so the approver is never asked about a call that could not spend a use.
      if (shared === undefined) {
        if (!ledger.available(deciding)) throw deniedError(request.right, request.path);
        return { ask, permit: async () => spendOnce(deciding, ledger.spend, request) };
      }
      if (!(await shared.available(deciding))) throw deniedError(request.right, request.path);
      return { ask, permit: () => reserved(shared, deciding, request) };
    },
  };
}

function spendOnce(
  deciding: readonly IndexedGrant[],
  spend: (deciding: readonly IndexedGrant[]) => boolean,
  request: AccessRequest,
): Permit {
  let spent = false;
  return {
    spend() {
      // One permit is one call: spending it again costs nothing more.
      if (spent) return;
      if (!spend(deciding)) throw deniedError(request.right, request.path);
      spent = true;
    },
  };
}

// A store cannot be asked synchronously, so the use is taken before the permit exists and the
// permit only decides whether it is kept: a call refused before its probe gets it back.
async function reserved(shared: SharedUsesLedger, deciding: readonly IndexedGrant[], request: AccessRequest): Promise<Permit> {
  const reservation = await shared.reserve(deciding);
  if (reservation === undefined) throw deniedError(request.right, request.path);
  let kept = false;
  let released = false;
  return {
    spend() {
      kept = true;
    },
    async release() {
      if (kept || released) return;
      released = true;
      await reservation.refund();
    },
  };
}
