import type { AccessRequest, Grant, Permit, Right, TargetKind, WorkspacePath } from '@libos/core';
import { deniedError } from './authority-errors.js';
import { createGrantMatcher, type IndexedGrant } from './grant-matcher.js';
import type { SharedUsesLedger } from './shared-uses-ledger.js';
import { createUsesLedger } from './uses-ledger.js';

/** What the grants say about one request that they do not deny. */
export interface GrantDecision {
  /** True when an `ask` grant decided, so the approver must agree first. */
  readonly ask: boolean;
  /** The grant that decided (the first `ask` grant when one did), for the audit record. */
  readonly rule: Grant;
  /**
   * The call's permit, made after any approval. With the local ledger, `spend()` spends the
   * deciding grants' uses; with a shared ledger the uses are taken here, atomically in the store
   * (rejecting `denied` when none is left), `spend()` keeps them and `release()` gives them back
   * when the call ended before `spend()`.
   */
  permit(): Promise<Permit>;
}

/** Applies a list of grants (docs/rules.md, Authority) to requests. */
export interface GrantPolicy {
  /** Rejects with `denied` when no grant matches, a deny grant matches, or the deciding grants' uses are spent. */
  decide(request: AccessRequest): Promise<GrantDecision>;
}

type Covers = Permit['covers'];
type CoversEntriesOf = NonNullable<Permit['coversEntriesOf']>;

/**
 * Builds the policy of a config's `grants`. Uses are counted in `shared` when given (a config with
 * `policy_id` on an Object store), else in a ledger that lives as long as the policy.
 */
export function createGrantPolicy(grants: readonly Grant[], shared?: SharedUsesLedger): GrantPolicy {
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
    async decide(request) {
      const found = decidingFor(request.right, request.path, request.target);
      const denied = (rule: Grant | null) => {
        request.onDecision?.({ outcome: 'denied', rule });
        return deniedError(request.right, request.path, rule?.mode === 'deny' ? rule.reason : undefined);
      };
      if (found === undefined)
        throw denied(matcher.matching(request.right, request.path, request.target).find((entry) => entry.grant.mode === 'deny')?.grant ?? null);
      const { ask, deciding } = found;
      const rule = deciding[0]!.grant;
      // Checked now too, so the approver is never asked about a call that could not spend a use.
      if (limited && shared === undefined && !ledger.available(deciding)) throw denied(rule);
      if (limited && shared !== undefined && !(await shared.available(deciding))) throw denied(rule);
      const ids = new Set(deciding.map((entry) => entry.id));
      // Below an authorized root, an ask grant counts as approved and a limited grant as spent only
      // when it is one this very call was decided by; anything else would need its own approval or use.
      const covers: Covers = (right, path, target) => {
        const other = decidingFor(right, path, target);
        if (other === undefined) return false;
        if (other.ask) return other.deciding.every((entry) => ids.has(entry.id));
        return other.deciding.some((entry) => entry.grant.uses === undefined || ids.has(entry.id));
      };
      // With no grant naming an entry of the directory, every entry is matched by the very grants
      // that match the directory as a tree (those on it and its ancestors), so one answer holds for all.
      // A delete is left out: its directory grants also hear deny and ask grants further below.
      const coversEntriesOf: CoversEntriesOf = (right, directory) =>
        right !== 'delete' && !matcher.namesEntriesOf(directory) && covers(right, directory, 'directory');
      if (!limited) return { ask, rule, permit: async () => ({ spend() {}, covers, coversEntriesOf }) };
      if (shared === undefined) return { ask, rule, permit: async () => spendOnce(deciding, ledger.spend, request, covers, coversEntriesOf) };
      return { ask, rule, permit: () => reserved(shared, deciding, request, covers, coversEntriesOf) };
    },
  };
}

function spendOnce(
  deciding: readonly IndexedGrant[],
  spend: (deciding: readonly IndexedGrant[]) => boolean,
  request: AccessRequest,
  covers: Covers,
  coversEntriesOf: CoversEntriesOf,
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
    coversEntriesOf,
  };
}

// A store cannot be asked synchronously, so the use is taken before the permit exists and the
// permit only decides whether it is kept: a call refused before its probe gets it back.
async function reserved(
  shared: SharedUsesLedger,
  deciding: readonly IndexedGrant[],
  request: AccessRequest,
  covers: Covers,
  coversEntriesOf: CoversEntriesOf,
): Promise<Permit> {
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
    covers,
    coversEntriesOf,
  };
}
