import type { Approver, Authority, LibosConfig, Permit } from '@libos/core';
import { createGrantPolicy } from './grant-policy.js';
import { createSharedUsesLedger, type UsesStore } from './shared-uses-ledger.js';
import { createLabelLookup } from './label-rules.js';
import { createNamespaceCheck } from './namespace-rights.js';
import { requestApproval } from './request-approval.js';

/** Options of createAuthority. */
export interface AuthorityOptions {
  readonly config: LibosConfig;
  /** Asked about every call an `ask` grant decides; without one those calls get `approval_required`. */
  readonly approver?: Approver;
  /** How long to wait for the approver before `approval_required`; by default only the call's signal ends the wait. */
  readonly approvalTimeoutMs?: number;
  /**
   * Where grant uses are counted when the config has a `policy_id` (the runtime's Object store), so
   * runtimes sharing the store and the `policy_id` share the counts. Without both, each authority
   * counts its own.
   */
  readonly usesStore?: UsesStore;
}

const free: Permit = { spend() {}, covers: () => true, coversEntriesOf: () => true };

/**
 * The authority engine of docs/rules.md, Authority. Without `grants` in the config every workspace
 * operation is allowed; with them, the grants are the whole policy. It never touches the
 * filesystem, so every answer depends only on the request and the config.
 */
export function createAuthority(options: AuthorityOptions): Authority {
  const { config, approver, approvalTimeoutMs, usesStore } = options;
  const shared =
    config.grants === undefined || usesStore === undefined || config.policy_id === undefined
      ? undefined
      : createSharedUsesLedger(usesStore, config.policy_id, config.grants);
  const policy = config.grants === undefined ? undefined : createGrantPolicy(config.grants, shared);
  const labelOf = createLabelLookup(config.labels, 'highest');
  const sinkRules = config.sinks.map((sink) => ({ path: sink.path, tree: sink.tree, label: sink.max_label }));
  const clearanceOf = createLabelLookup(sinkRules, 'lowest');
  const sinkOf = createLabelLookup(sinkRules, 'lowest', null);

  return {
    async authorize(request) {
      if (policy === undefined) {
        request.onDecision?.({ outcome: 'allowed', rule: null });
        return free;
      }
      const decision = await policy.decide(request);
      const { rule } = decision;
      if (decision.ask)
        await requestApproval(approver, request, approvalTimeoutMs, (approval) => request.onDecision?.({ outcome: 'asked', rule, approval }));
      else request.onDecision?.({ outcome: 'allowed', rule });
      return decision.permit().catch((error: unknown) => {
        // A shared ledger can run out between the check and the reservation.
        request.onDecision?.({ outcome: 'denied', rule });
        throw error;
      });
    },
    authorizeNamespace: createNamespaceCheck(config.namespaces),
    labelOf,
    clearanceOf,
    sinkOf,
  };
}
