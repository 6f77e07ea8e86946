import type { AccessRequest, Grant, Permit } from '@libos/core';
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

const unlimited: Permit = { spend() {} };

/** Builds the policy of a config's `grants`; its uses ledger lives as long as the policy. */
export function createGrantPolicy(grants: readonly Grant[]): GrantPolicy {
  const matcher = createGrantMatcher(grants);
  const ledger = createUsesLedger(grants);
  const limited = grants.some((grant) => grant.uses !== undefined);

  return {
    decide(request) {
      const matching = matcher.matching(request.right, request.path, request.target);
      if (matching.length === 0 || matching.some((entry) => entry.grant.mode === 'deny')) {
        throw deniedError(request.right, request.path);
      }
      const asks = matching.filter((entry) => entry.grant.mode === 'ask');
      const deciding = asks.length > 0 ? asks : matching;
      // Checked now too, so the approver is never asked about a call that could not spend a use.
      if (limited && !ledger.available(deciding)) throw deniedError(request.right, request.path);
      return { ask: asks.length > 0, permit: limited ? spendOnce(deciding, ledger.spend, request) : unlimited };
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
