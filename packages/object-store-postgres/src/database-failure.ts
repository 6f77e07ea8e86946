import { LibosError, type Effect } from '@libos/core';

/**
 * The LibosError a failed database call becomes: a LibosError stays as it is; anything else (a lost
 * connection, a refused login, a server error) is `provider_failure` with the effect the caller
 * can vouch for: `none` for a read, `unknown` for a write whose commit may or may not have landed.
 */
export function databaseFailure(error: unknown, effect: Effect): LibosError {
  if (LibosError.is(error)) return error;
  const sqlstate = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  return new LibosError('provider_failure', `The Object store's database failed: ${reason}`, {
    effect,
    details: sqlstate === undefined ? {} : { sqlstate },
    cause: error,
  });
}
