import type { IndexedGrant } from './grant-matcher.js';

/**
 * The remaining uses of every grant that has a `uses` count, shared by all processes of a runtime.
 *
 * Which uses a call spends: the grants that decided it are those of the winning mode (every
 * matching `ask` grant when one matched, else every matching `allow` grant). When one of them has no
 * `uses`, it alone allows the call and nothing is spent. Otherwise the call spends one use of each of
 * them that has uses left, so every limited grant counts each call it allowed, and the call is
 * denied once none has any left. An exhausted `ask` grant never lets a lower `allow` grant through.
 */
export interface UsesLedger {
  /** Whether the deciding grants would let one more call through now. */
  available(deciding: readonly IndexedGrant[]): boolean;
  /**
   * Spends one use of each limited deciding grant that has uses left; returns false, spending
   * nothing, when none has. Synchronous, so two racing calls can never spend the same use.
   */
  spend(deciding: readonly IndexedGrant[]): boolean;
}

/** Creates the ledger from the grants' `uses` counts. */
export function createUsesLedger(grants: readonly { readonly uses?: number | undefined }[]): UsesLedger {
  const remaining = grants.map((grant) => grant.uses ?? Number.POSITIVE_INFINITY);

  const unlimited = (deciding: readonly IndexedGrant[]) => deciding.some((entry) => remaining[entry.id] === Number.POSITIVE_INFINITY);
  const anyLeft = (deciding: readonly IndexedGrant[]) => deciding.some((entry) => remaining[entry.id]! > 0);

  return {
    available(deciding) {
      return unlimited(deciding) || anyLeft(deciding);
    },
    spend(deciding) {
      if (unlimited(deciding)) return true;
      if (!anyLeft(deciding)) return false;
      for (const entry of deciding) {
        if (remaining[entry.id]! > 0) remaining[entry.id]! -= 1;
      }
      return true;
    },
  };
}
