import { LibosError, providerErrors, type Effect, type WorkspacePath } from '@libos/core';

/** The SQLSTATE of a server error, or the Node error code of a lost connection, else undefined. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * The LibosError a failed database call becomes: a LibosError stays as it is; anything else is
 * `provider_failure` naming the SQLSTATE (or the socket's error code) as `host_code`. `effect` is
 * what the caller can vouch for: `none` when nothing could have committed (a read, a transaction
 * not yet committing, a statement the server answered with an ERROR, which rolled it back), else
 * `unknown` (the connection was lost while a change was committing).
 */
export function databaseFailure(error: unknown, path: WorkspacePath, effect: Effect): LibosError {
  if (LibosError.is(error)) return error;
  const severity = typeof error === 'object' && error !== null && 'severity' in error ? error.severity : undefined;
  return providerErrors.failure(path, errorCode(error) ?? null, { effect: severity === 'ERROR' ? 'none' : effect, cause: error });
}
