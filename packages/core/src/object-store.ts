import type { MemoryObject } from './memory-object.js';

/**
 * What every store method's options may carry. `signal`: the caller gave up (an MCP cancellation, a
 * closed client); the store stops where it waits and rejects with `objectStoreErrors.cancelled`
 * (`provider_failure`, `details.reason: "cancelled"`): effect `none` before anything was sent,
 * `unknown` once a write may have landed. A signal already aborted when the call starts changes nothing.
 */
export interface StoreCallOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * What an Object store can guarantee beyond the interface. The conformance kit reads them to decide
 * which groups apply; the runtime reads `leaseMs` to know how often to renew process leases.
 */
export interface ObjectStoreCapabilities {
  /** Other runtimes (other OS processes, other hosts) that open the same store see the same Objects and ledger. */
  readonly shared: boolean;
  /** Declared namespaces, their Objects and the ledger outlive the runtime: a restart finds them again. */
  readonly durable: boolean;
  /**
   * How long a process namespace outlives its last lease renewal before the store may drop it with
   * its Objects (milliseconds), or undefined when the store never expires anything (it lives and
   * dies with the runtime, like the in-memory store). The runtime renews at a third of this.
   */
  readonly leaseMs?: number;
}

/** The quotas one `create` is held to, over every live Object the store holds (`bounds` in docs/rules.md). */
export interface ObjectStoreQuota {
  /** At most this many live Objects once the new one is in (`bounds.objects_max_count`). */
  readonly maxObjectsCount: number;
  /** At most this many payload bytes (the sum of `payloadBytes`) once the new one is in (`bounds.objects_max_bytes`). */
  readonly maxObjectsBytes: number;
}

/** Options of `ObjectStoreV1.create`. */
export interface ObjectStoreCreateOptions extends StoreCallOptions {
  /**
   * The payload gate's measure of this Object: UTF-8 bytes of `JSON.stringify(object.payload)`.
   * Object Memory has measured it already; the store adds it to its byte total and gives it back
   * when the Object is dropped, and `usage().bytes` is the sum over live Objects.
   */
  readonly payloadBytes: number;
  readonly quota: ObjectStoreQuota;
}

/** What a store holds now, over every namespace (what the quotas count). */
export interface ObjectStoreUsage {
  /** Live Objects. */
  readonly objects: number;
  /** Sum of the `payloadBytes` of the live Objects. */
  readonly bytes: number;
}

/** Options of `ObjectStoreV1.declareNamespace`. */
export interface DeclareNamespaceOptions extends StoreCallOptions {
  /**
   * True for a process's own `process:<pid>` namespace: it belongs to one live process. The runtime
   * drops it when the process ends; a store with `capabilities.leaseMs` also drops it (with its
   * Objects) once that long has passed since the last `declareNamespace` or `renewLeases` naming it,
   * so the namespace of a process whose host died does not stay forever. Default false: a declared
   * (config) namespace, never expired.
   */
  readonly process?: boolean;
}

/**
 * Where Object Memory keeps namespaces, Objects and the spent `uses` of grants (docs/objects.md). Object Memory (`createObjectMemory({ store })`) validates everything first (names,
 * namespaces, types, labels, plain-JSON payloads, the payload gate) and builds each Object whole (oid,
 * `created_at`, `created_by`); a store only keeps records and decides what must be decided
 * atomically where the data lives: name uniqueness, the quotas, and the uses ledger.
 *
 * Rules every method follows (each takes optional `StoreCallOptions` last, for its `signal`):
 * - Every method returns a promise (a store may sit on a network) and reports failure by rejecting
 *   with a `LibosError` of a code named on the method, or `provider_failure` when the backing
 *   system failed, built with `objectStoreErrors` (so every store words a failure the same way and
 *   its `details` match `OBJECT_STORE_ERROR_DETAILS`, which the store kit checks). `provider_failure` carries `effect: "unknown"` when the change
 *   may have happened (a connection lost after a write was sent) and `effect: "none"` when the store
 *   knows it did not. Nothing else is thrown; messages never hold connection strings or host paths.
 * - Namespace and Object names arrive already checked (`isValidNamespace` from core, a normalized
 *   Object name); they are arbitrary well-formed Unicode (spaces, `:`, `/`, emoji, up to the
 *   arguments bound in length). Compare them exactly: no case folding, no Unicode normalization, no
 *   trimming.
 * - Objects are immutable: a store never changes, replaces or upserts a stored Object. What it
 *   returns must equal what was created, field for field, and the payload must be the same JSON:
 *   `JSON.stringify(returned.payload) === JSON.stringify(created.payload)`, key order included; every
 *   string exactly (NUL, a lone U+FEFF, U+2028, lone surrogates, 16 MiB texts). Mutating a returned
 *   value must not change what the store holds (return frozen values or fresh copies).
 * - Sorting is by code point (`compareCodePoints` from core; SQL `COLLATE "C"` on UTF-8).
 * - Calls may run concurrently from one runtime, from several runtimes in one OS process, and (for a
 *   `shared` store) from many hosts: each method is atomic on its own.
 * - A store is used by one runtime at a time unless it is `shared`; `close()` is the runtime's to call.
 */
export interface ObjectStoreV1 {
  /** The interface version this store implements. */
  readonly specificationVersion: 'v1';
  /** A short name for messages and test ids, e.g. `memory`, `postgres`. */
  readonly name: string;
  readonly capabilities: ObjectStoreCapabilities;

  /**
   * Makes a namespace exist; idempotent (declaring an existing namespace changes nothing, its Objects
   * stay). With `{ process: true }` it also starts or renews that process namespace's lease.
   */
  declareNamespace(namespace: string, options?: DeclareNamespaceOptions): Promise<void>;
  /** Whether a namespace exists (declared and not dropped or expired). */
  hasNamespace(namespace: string, options?: StoreCallOptions): Promise<boolean>;
  /** Every existing namespace, process namespaces included, sorted by code point, each once. */
  listNamespaces(options?: StoreCallOptions): Promise<string[]>;
  /**
   * Removes a namespace and every Object in it, atomically: afterwards no call sees any of them, their
   * names are free, and their count and bytes no longer count against the quotas. Resolves to the
   * number of Objects removed; a namespace that does not exist resolves to 0 and changes nothing.
   */
  dropNamespace(namespace: string, options?: StoreCallOptions): Promise<number>;
  /**
   * Renews the leases of these process namespaces (those declared with `{ process: true }`), so a
   * store with `capabilities.leaseMs` keeps them; names that do not exist are ignored. The runtime
   * calls it at a third of `leaseMs` for the live processes it owns. A store without leases resolves.
   */
  renewLeases(namespaces: readonly string[], options?: StoreCallOptions): Promise<void>;

  /**
   * Stores one Object whose every field is already decided. In one atomic step the store checks, in
   * this order, and rejects changing nothing (`effect: "none"`):
   * - `namespace_not_found`: `object.namespace` does not exist;
   * - `name_taken`: a live Object of `object.namespace` already has `object.name`. Decided by the
   *   store itself (a unique index, a lock), never by an earlier read: of any number of concurrent
   *   creators of one name, on any number of hosts, exactly one succeeds;
   * - `quota_exceeded`: with the new Object in, the live Objects would number more than
   *   `options.quota.maxObjectsCount` or their `payloadBytes` would sum to more than
   *   `options.quota.maxObjectsBytes`; counted on what the store holds, so concurrent creators
   *   cannot pass a quota together. `details.quota` is `objects_max_count` or `objects_max_bytes`.
   * A store may also reject an `oid` that is already taken with `objectStoreErrors.oidTaken` (oids
   * are 64 random bits; it never happens in practice).
   */
  create(object: MemoryObject, options: ObjectStoreCreateOptions): Promise<void>;
  /** The live Object of that name in the namespace, or undefined (also when the namespace does not exist). */
  get(namespace: string, name: string, options?: StoreCallOptions): Promise<MemoryObject | undefined>;
  /** The live Object with that oid, in whatever namespace, or undefined. */
  getByOid(oid: string, options?: StoreCallOptions): Promise<MemoryObject | undefined>;
  /** The names of a namespace's live Objects in creation order (empty when it does not exist). */
  listNames(namespace: string, options?: StoreCallOptions): Promise<string[]>;
  /** What the live Objects take now, over every namespace. */
  usage(options?: StoreCallOptions): Promise<ObjectStoreUsage>;

  /**
   * The uses ledger (`uses` in docs/rules.md): atomically adds `amount` (an integer of at least 1) to
   * the spent count of `key` if the result stays at most `limit`, and resolves true; else resolves
   * false and spends nothing. A key never spent has count 0. Of concurrent spenders on one key, on
   * any number of hosts, never more than `limit` uses are granted in all. Keys are well-formed
   * strings of at most 1024 UTF-16 units, compared exactly; the runtime derives them from the
   * config's `policy_id` and the grant, so runtimes with one `policy_id` share one count.
   */
  spendUses(key: string, amount: number, limit: number, options?: StoreCallOptions): Promise<boolean>;
  /**
   * Gives back `amount` uses of `key` that a call reserved but did not spend (it was refused before
   * its state probe); the count never goes below 0. Atomic like `spendUses`.
   */
  refundUses(key: string, amount: number, options?: StoreCallOptions): Promise<void>;
  /** The spent count of `key` (0 when never spent). */
  spentUses(key: string, options?: StoreCallOptions): Promise<number>;

  /** Releases connections and timers; later calls reject with `provider_failure`. Safe to call twice. */
  close(): Promise<void>;
}
