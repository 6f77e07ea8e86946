import { LibosError, objectStoreErrors, type Effect } from '@libos/core';

/** The store's name in its errors and test ids. */
export const STORE_NAME = 'postgres';

/**
 * The LibosError a failed database call becomes: a LibosError stays as it is; anything else is
 * `objectStoreErrors.failure` with the error's own code (an SQLSTATE, or a socket code such as
 * `ECONNREFUSED`) and never the driver's message, which can hold a host, a user or a statement.
 * Its effect: `none` when the server answered the statement with an ERROR (each call is one
 * statement in its own transaction, so an ERROR rolled all of it back), and otherwise (a lost
 * connection, a FATAL termination) the effect the caller can vouch for: `none` for a read,
 * `unknown` for a write whose commit may or may not have landed.
 */
export function databaseFailure(error: unknown, effect: Effect): LibosError {
  if (LibosError.is(error)) return error;
  const fields = typeof error === 'object' && error !== null ? (error as { code?: unknown; severity?: unknown }) : {};
  const code = typeof fields.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(fields.code) ? fields.code : null;
  return objectStoreErrors.failure(STORE_NAME, code, { effect: fields.severity === 'ERROR' ? 'none' : effect, cause: error });
}
