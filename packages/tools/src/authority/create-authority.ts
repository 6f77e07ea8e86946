import type { Approver, Authority, LibosConfig, Permit } from '@libos/core';
import { createGrantPolicy } from './grant-policy.js';
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
}

const free: Permit = { spend() {}, covers: () => true };

/**
 * The authority engine of CONTRACT.md section 5. Without `grants` in the config every workspace
 * operation is allowed; with them, the grants are the whole policy. It never touches the
 * filesystem, so every answer depends only on the request and the config.
 */
export function createAuthority(options: AuthorityOptions): Authority {
  const { config, approver, approvalTimeoutMs } = options;
  const policy = config.grants === undefined ? undefined : createGrantPolicy(config.grants);
  const labelOf = createLabelLookup(config.labels, 'highest');
  const clearanceOf = createLabelLookup(
    config.sinks.map((sink) => ({ path: sink.path, tree: sink.tree, label: sink.max_label })),
    'lowest',
  );

  return {
    async authorize(request) {
      if (policy === undefined) return free;
      const decision = policy.decide(request);
      if (decision.ask) await requestApproval(approver, request, approvalTimeoutMs);
      return decision.permit;
    },
    authorizeNamespace: createNamespaceCheck(config.namespaces),
    labelOf,
    clearanceOf,
  };
}
