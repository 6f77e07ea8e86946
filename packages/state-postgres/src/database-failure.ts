import { LibosError, type Effect } from '@libos/core';

/**
 * The LibosError a failed statement becomes: `provider_failure` with the error's own code (an
 * SQLSTATE, or a socket code such as `ECONNREFUSED`), never the driver's message, which can hold a
 * host, a user or a statement. Its effect is `none` when the server answered with an ERROR (each
 * call is one statement, rolled back whole), else the caller's: `unknown` for a write whose commit
 * may have landed.
 */
export function databaseFailure(error: unknown, effect: Effect): LibosError {
  if (LibosError.is(error)) return error;
  const fields = typeof error === 'object' && error !== null ? (error as { code?: unknown; severity?: unknown }) : {};
  const code = typeof fields.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(fields.code) ? fields.code : null;
  return new LibosError('provider_failure', `The PostgreSQL state store failed${code === null ? '' : ` (${code})`}.`, {
    effect: fields.severity === 'ERROR' ? 'none' : effect,
    details: { store: 'postgres', reason: 'database', code },
    cause: error,
  });
}
