import { providerErrors, type Effect, type WorkspacePath } from '@libos/core';

/**
 * Throws the `cancelled` provider failure when `signal` has aborted; a provider calls it before it
 * starts and wherever it waits (a flush, a lock, a network round trip), with effect `unknown` once
 * it has begun changing things. A call past its last such point finishes as it would have.
 */
export function checkSignal(signal: AbortSignal | undefined, path: WorkspacePath, effect: Effect = 'none'): void {
  if (signal?.aborted === true) throw providerErrors.cancelled(path, { effect });
}
