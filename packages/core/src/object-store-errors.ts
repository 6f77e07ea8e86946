import type { Effect } from './error-code.js';
import { LibosError } from './libos-error.js';
import type { ObjectStoreCreateOptions, ObjectStoreUsage } from './object-store.js';

/** Why a store's `provider_failure` happened when it is not a backend error. */
export type StoreFailureReason = 'closed' | 'cancelled' | 'oid_taken' | 'invalid_record' | 'schema_too_new';

function make(code: LibosError['code'], message: string, details: Record<string, unknown>, effect: Effect, cause?: unknown): LibosError {
  return new LibosError(code, message, { effect, details, ...(cause === undefined ? {} : { cause }) });
}

/**
 * One factory per error an Object store raises, so every store words a failure the same way and
 * names its values with the same `details` keys (`OBJECT_STORE_ERROR_DETAILS` lists them; the store
 * kit checks every error against it). `store` is the store's `name`. Messages hold values the
 * caller gave, never a connection string, a host path or a driver's own text.
 */
export const objectStoreErrors = {
  /** `namespace_not_found` (effect `none`): the namespace does not exist. */
  namespaceNotFound(namespace: string): LibosError {
    return make('namespace_not_found', 'The namespace does not exist.', { namespace }, 'none');
  },
  /** `name_taken` (effect `none`): a live Object of the namespace already has the name. */
  nameTaken(namespace: string, name: string): LibosError {
    return make('name_taken', 'A live Object already has this name in the namespace.', { namespace, name }, 'none');
  },
  /** `quota_exceeded` (effect `none`): the create would take the live Objects past a quota; `usage` is what they took before it. */
  quotaExceeded(quota: 'objects_max_count' | 'objects_max_bytes', usage: ObjectStoreUsage, options: ObjectStoreCreateOptions): LibosError {
    if (quota === 'objects_max_count') {
      return make(
        'quota_exceeded',
        `Object Memory holds ${usage.objects} Objects; the quota is ${options.quota.maxObjectsCount}.`,
        { quota, live_objects: usage.objects, max_count: options.quota.maxObjectsCount },
        'none',
      );
    }
    return make(
      'quota_exceeded',
      `Object Memory holds ${usage.bytes} payload bytes; ${options.payloadBytes} more would pass the ${options.quota.maxObjectsBytes}-byte quota.`,
      { quota, live_bytes: usage.bytes, payload_bytes: options.payloadBytes, max_bytes: options.quota.maxObjectsBytes },
      'none',
    );
  },
  /** `provider_failure` (effect `none`): the Object's oid is already taken. */
  oidTaken(store: string): LibosError {
    return make('provider_failure', 'The oid is already taken.', { store, reason: 'oid_taken' }, 'none');
  },
  /** `provider_failure` (effect `none`): the backend holds a record that is not a valid Object (another writer got it wrong). */
  invalidRecord(store: string, oid: string): LibosError {
    return make('provider_failure', 'The Object store holds a record that is not a valid Object.', { store, reason: 'invalid_record', oid }, 'none');
  },
  /** `provider_failure` (effect `none`): the backend's schema is newer than this store's code knows. */
  schemaTooNew(store: string, found: number, known: number): LibosError {
    return make(
      'provider_failure',
      `The ${store} Object store's schema is at version ${found}, newer than this package knows (${known}); upgrade the package.`,
      { store, reason: 'schema_too_new', schema_version: found, known_version: known },
      'none',
    );
  },
  /** `provider_failure` (effect `none`): the store is closed, so nothing was touched. */
  closed(store: string): LibosError {
    return make('provider_failure', `The ${store} Object store is closed.`, { store, reason: 'closed' }, 'none');
  },
  /** `provider_failure`: the call's signal aborted it; effect `none` unless a write may have landed. */
  cancelled(store: string, effect: Effect = 'none'): LibosError {
    const message =
      effect === 'none' ? 'The call was cancelled before it changed anything.' : 'The call was cancelled midway; observe before retrying.';
    return make('provider_failure', message, { store, reason: 'cancelled' }, effect);
  },
  /**
   * `provider_failure` of the backing system: `hostCode` is its own error code (an SQLSTATE such as
   * `57P01`, a socket code such as `ECONNREFUSED`) or null; its message is never copied. Effect
   * `unknown` unless the store knows nothing changed.
   */
  failure(store: string, hostCode: string | null, options: { readonly effect?: Effect; readonly cause?: unknown } = {}): LibosError {
    const message = `The ${store} Object store's backend failed${hostCode === null ? '' : ` (${hostCode})`}.`;
    return make('provider_failure', message, { store, host_code: hostCode }, options.effect ?? 'unknown', options.cause);
  },
};

/** Rejects with `objectStoreErrors.cancelled` when `signal` has aborted; a store calls it on entry and wherever it waits. */
export function checkStoreSignal(signal: AbortSignal | undefined, store: string, effect: Effect = 'none'): void {
  if (signal?.aborted === true) throw objectStoreErrors.cancelled(store, effect);
}

/**
 * The `details` keys of every Object store error, by code: `required` always present, `optional`
 * allowed. The store conformance kit checks every error a store raises against this table.
 */
export const OBJECT_STORE_ERROR_DETAILS: Readonly<
  Partial<Record<LibosError['code'], { readonly required: readonly string[]; readonly optional: readonly string[] }>>
> = {
  namespace_not_found: { required: ['namespace'], optional: [] },
  name_taken: { required: ['namespace', 'name'], optional: [] },
  quota_exceeded: { required: ['quota'], optional: ['live_objects', 'max_count', 'live_bytes', 'payload_bytes', 'max_bytes'] },
  provider_failure: { required: ['store'], optional: ['reason', 'host_code', 'oid', 'schema_version', 'known_version'] },
};
