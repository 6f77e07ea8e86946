import { LibosError, type Effect } from '@libos/core';

/**
 * The LibosError a failed database call becomes: a LibosError stays as it is; anything else is
 * `provider_failure`. Its effect: `none` when the server answered the statement with an ERROR
 * (each call is one statement in its own transaction, so an ERROR rolled all of it back), and
 * otherwise (a lost connection, a FATAL termination) the effect the caller can vouch for: `none`
 * for a read, `unknown` for a write whose commit may or may not have landed.
 */
export function databaseFailure(error: unknown, effect: Effect): LibosError {
  if (LibosError.is(error)) return error;
  const fields = typeof error === 'object' && error !== null ? (error as { code?: unknown; severity?: unknown }) : {};
  const sqlstate = typeof fields.code === 'string' ? fields.code : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  return new LibosError('provider_failure', `The Object store's database failed: ${reason}`, {
    effect: fields.severity === 'ERROR' ? 'none' : effect,
    details: sqlstate === undefined ? {} : { sqlstate },
    cause: error,
  });
}
