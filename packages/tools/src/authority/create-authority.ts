import { LibosError, type Approver, type Authority, type LibosConfig, type Permit } from '@libos/core';

/** Options of createAuthority. */
export interface AuthorityOptions {
  readonly config: LibosConfig;
  readonly approver?: Approver;
}

const noUses: Permit = { spend() {} };

/**
 * Interim: allows every workspace operation and only the process's own namespace. The policy
 * engine of CONTRACT.md section 5 replaces this body.
 */
export function createAuthority(options: AuthorityOptions): Authority {
  const declared = new Set(options.config.namespaces.map((namespace) => namespace.name));
  return {
    async authorize() {
      return noUses;
    },
    authorizeNamespace(namespace, _right, ownNamespace) {
      if (namespace === ownNamespace || declared.has(namespace)) return;
      throw new LibosError('namespace_not_found', `The namespace "${namespace}" does not exist.`);
    },
    labelOf() {
      return 'normal';
    },
    clearanceOf() {
      return 'normal';
    },
  };
}
