import { LibosError } from '@libos/core';

/** Checks one namespace right; throws `namespace_not_found` or `denied`. */
export type NamespaceCheck = (namespace: string, right: 'read' | 'write', ownNamespace: string) => void;

/**
 * A process always reads and writes its own `process:<pid>`; other namespaces exist only when
 * declared, each with the rights the config grants. Another process's namespace is reported as
 * missing, exactly like a name that was never declared, so processes cannot probe for each other.
 */
export function createNamespaceCheck(declared: readonly { readonly name: string; readonly rights: readonly ('read' | 'write')[] }[]): NamespaceCheck {
  const rightsByName = new Map(declared.map((namespace) => [namespace.name, namespace.rights]));
  return (namespace, right, ownNamespace) => {
    if (namespace === ownNamespace) return;
    const rights = namespace.startsWith('process:') ? undefined : rightsByName.get(namespace);
    if (rights === undefined) {
      throw new LibosError('namespace_not_found', `The namespace ${JSON.stringify(namespace)} does not exist.`, {
        details: { namespace },
      });
    }
    if (!rights.includes(right)) {
      const verb = right === 'read' ? 'Reading' : 'Writing';
      throw new LibosError('denied', `${verb} the namespace ${JSON.stringify(namespace)} is not permitted.`, {
        details: { right, namespace },
      });
    }
  };
}
