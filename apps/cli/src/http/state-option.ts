import type { LibosConfig, ProcessStoreV1 } from '@libos/core';
import { urlWithoutPassword } from '@libos/provider-kit';
import { UsageError } from '../usage-error.js';
import type { WorkspaceOptions } from '../workspace/workspace-options.js';

const SCHEMES = /^postgres(?:ql)?:\/\//iu;

/**
 * `--state postgres://…` (docs/fleet.md): the processes of stateless callers live in that database,
 * and so do their `process:` Objects and the spent uses of grants, in the Object store on the same
 * database unless `--objects` names another one. A checkpoint file for `--objects` would keep Objects
 * on one instance, so it is refused.
 */
export function withStateOption(command: string, state: string | undefined, workspace: WorkspaceOptions): WorkspaceOptions {
  if (state === undefined) return workspace;
  if (!SCHEMES.test(state)) throw new UsageError(`${command}: --state must be a postgres:// URL, not '${urlWithoutPassword(state)}'`);
  if (workspace.objectsFile !== undefined) {
    throw new UsageError(
      `${command}: --state keeps process Objects in PostgreSQL for every instance; --objects must then be a postgres:// URL, or left out (the --state database)`,
    );
  }
  return workspace.objectsUrl === undefined ? { ...workspace, objectsUrl: state } : workspace;
}

/**
 * Instances share the uses of a grant only under the config's `policy_id` (docs/rules.md): without
 * one, each instance would count its own, and `uses: 3` would allow three calls per instance.
 */
export function checkFleetPolicy(command: string, config: LibosConfig): void {
  const counted = config.grants?.some((grant) => grant.uses !== undefined) === true;
  if (counted && config.policy_id === undefined) {
    throw new UsageError(
      `${command}: --state: the config's grants count uses, which the instances share only under a policy_id; add "policy_id" to the config`,
    );
  }
}

/** What `--state` opens: the process store and the approvals' shared key and used states. */
export interface FleetState {
  readonly processes: ProcessStoreV1;
  readonly approvals: { readonly key: Uint8Array; readonly store: { consume(id: string, expiresAt: number): Promise<boolean> } };
  close(): Promise<void>;
}

/** Opens the state of `--state`; a database it cannot reach is a UsageError. */
export async function openFleetState(command: string, url: string): Promise<FleetState> {
  const { createPostgresApprovalState, createPostgresProcessStore } = await import('@libos/state-postgres');
  try {
    const processes = await createPostgresProcessStore({ connectionString: url });
    const approvals = await createPostgresApprovalState({ connectionString: url }).catch(async (error: unknown) => {
      await processes.close();
      throw error;
    });
    return { processes, approvals, close: () => approvals.close() };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    throw new UsageError(`${command}: --state ${urlWithoutPassword(url)}: cannot open the state store: ${reason}`);
  }
}
