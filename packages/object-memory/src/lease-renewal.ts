import type { ObjectStoreV1 } from '@libos/core';

/** A running lease renewal; `stop` ends it. */
export interface LeaseRenewal {
  stop(): void;
}

/**
 * Renews, at a third of the store's `leaseMs`, the leases of the process namespaces `owned` lists,
 * so a store that expires the namespaces of dead hosts keeps those of live processes. Nothing runs
 * for a store without leases. The timer never keeps the host process alive, and a failed renewal
 * is retried at the next tick (a lease outlives two missed renewals). A timer cannot run while the
 * event loop is stalled, so a store with leases must not rest on it alone: it sweeps a namespace
 * only when its owner is gone too (the PostgreSQL store asks whether the owner's session lock is
 * still held; docs/objects.md).
 */
export function startLeaseRenewal(store: ObjectStoreV1, owned: () => readonly string[]): LeaseRenewal {
  const leaseMs = store.capabilities.leaseMs;
  if (leaseMs === undefined || !(leaseMs > 0)) return { stop() {} };
  let renewing = false;
  const timer = setInterval(
    () => {
      const namespaces = owned();
      // One renewal at a time: a slow store must not pile up calls.
      if (renewing || namespaces.length === 0) return;
      renewing = true;
      store
        .renewLeases(namespaces)
        .catch(() => undefined)
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
