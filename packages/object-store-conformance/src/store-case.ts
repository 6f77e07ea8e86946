import type { ErrorCode, LibosError } from '@libos/core';
import type { MemoryObject, ObjectMemory, ObjectMemoryOptions, ObjectStoreCapabilities, ObjectStoreQuota, ObjectStoreV1 } from '@libos/object-memory';

/** What a store factory receives: a place to register cleanups, run after the store is closed. */
export interface StoreFactoryContext {
  onCleanup(cleanup: () => void | Promise<void>): void;
}

/** What a store factory returns for one case. */
export interface StoreUnderTest {
  /** A fresh, empty store: no namespaces, no Objects, no spent uses. */
  readonly store: ObjectStoreV1;
  /**
   * Another store instance on the same backing data (another connection pool, another client),
   * for stores with `capabilities.shared`: the kit checks that both see one state and that races
   * between them are decided once. The kit closes what it opens.
   */
  openAnother?(): Promise<ObjectStoreV1>;
}

/** Makes the store under test; runs once per case. */
export type StoreFactory = (context: StoreFactoryContext) => StoreUnderTest | Promise<StoreUnderTest>;

/** A capability a case needs the store to declare, or `another` for a factory with `openAnother`. */
export type StoreRequirement = 'shared' | 'durable' | 'leaseMs' | 'another';

/** What a case body works with. */
export interface StoreCaseContext {
  readonly store: ObjectStoreV1;
  readonly capabilities: ObjectStoreCapabilities;
  /** A second instance on the same data (only in cases that require `another`). */
  another(): Promise<ObjectStoreV1>;
  /** A new whole Object (fresh oid, `artifact`, label `normal`), with `fields` replacing the defaults. */
  object(namespace: string, name: string, fields?: Partial<MemoryObject>): MemoryObject;
  /** Creates `object` with its measured payload bytes under `quota` (default: quotas no case reaches). */
  create(object: MemoryObject, quota?: Partial<ObjectStoreQuota>, store?: ObjectStoreV1): Promise<void>;
  /**
   * Awaits `action` and asserts it rejects with a LibosError of one of `codes` and effect `effect`
   * (default `none`); returns it.
   */
  expectError(action: Promise<unknown>, codes: ErrorCode | readonly ErrorCode[], effect?: 'none' | 'unknown' | 'any'): Promise<LibosError>;
  /** An Object Memory on this store (`createObjectMemory({ store, ...options })`). */
  memory(options?: Omit<ObjectMemoryOptions, 'store'>): Promise<ObjectMemory>;
  /** A fresh temporary host directory, removed after the case. */
  temporaryDirectory(): Promise<string>;
}

/** One conformance check: stable id `<group> > <name>`, its requirements and its body. */
export interface StoreCase {
  readonly id: string;
  readonly group: string;
  readonly name: string;
  readonly requires: readonly StoreRequirement[];
  run(context: StoreCaseContext): Promise<void>;
}

/** Makes a case whose id derives from its group and name. */
export function defineStoreCase(
  group: string,
  name: string,
  run: (context: StoreCaseContext) => Promise<void>,
  requires: readonly StoreRequirement[] = [],
): StoreCase {
  return { id: `${group} > ${name}`, group, name, requires, run };
}
