import { createHash } from 'node:crypto';
import type { Grant } from '@libos/core';
import type { ObjectStoreV1 } from '@libos/object-memory';
import type { IndexedGrant } from './grant-matcher.js';

/** The part of an Object store that keeps spent uses. */
export type UsesStore = Pick<ObjectStoreV1, 'spendUses' | 'refundUses' | 'spentUses'>;

/** Uses a call took from the shared ledger; `refund` gives them back if the call never reached its probe. */
export interface UsesReservation {
  refund(): Promise<void>;
}

/**
 * The uses of a config's grants, counted in an Object store's ledger under the config's
 * `policy_id`, so every runtime on that store with the same `policy_id` spends one count. The rule
 * of which grants a call spends is the local ledger's (see UsesLedger); each grant's count is one
 * ledger key, spent atomically by the store, so no two calls anywhere can take the same use.
 */
export interface SharedUsesLedger {
  /** Whether the deciding grants would let one more call through now (one read; a reservation decides). */
  available(deciding: readonly IndexedGrant[]): Promise<boolean>;
  /**
   * Takes one use of each limited deciding grant that has one left; resolves undefined, taking
   * nothing, when none has. Resolves a reservation with nothing to refund when an unlimited grant decided.
   */
  reserve(deciding: readonly IndexedGrant[]): Promise<UsesReservation | undefined>;
}

const nothingToRefund: UsesReservation = { refund: async () => undefined };

/** Creates the ledger of `grants` under `policyId` in `store`. */
export function createSharedUsesLedger(store: UsesStore, policyId: string, grants: readonly Grant[]): SharedUsesLedger {
  // The grant's position and content are in its key: a policy that edits a grant starts its count afresh.
  const keys = grants.map(
    (grant, index) => `policy:${policyId}/grant:${index}/${createHash('sha256').update(JSON.stringify(grant)).digest('hex').slice(0, 32)}`,
  );
  const limited = (deciding: readonly IndexedGrant[]) => deciding.filter((entry) => entry.grant.uses !== undefined);
  const unlimited = (deciding: readonly IndexedGrant[]) => deciding.some((entry) => entry.grant.uses === undefined);

  return {
    async available(deciding) {
      if (unlimited(deciding)) return true;
      const spent = await Promise.all(limited(deciding).map((entry) => store.spentUses(keys[entry.id]!)));
      return limited(deciding).some((entry, index) => spent[index]! < entry.grant.uses!);
    },
    async reserve(deciding) {
      if (unlimited(deciding)) return nothingToRefund;
      const entries = limited(deciding);
      const taken = await Promise.all(entries.map((entry) => store.spendUses(keys[entry.id]!, 1, entry.grant.uses!)));
      const spentKeys = entries.filter((_, index) => taken[index]).map((entry) => keys[entry.id]!);
      if (spentKeys.length === 0) return undefined;
      return {
        async refund() {
          await Promise.all(spentKeys.map((key) => store.refundUses(key, 1)));
        },
      };
    },
  };
}
