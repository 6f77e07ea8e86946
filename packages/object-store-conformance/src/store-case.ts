import {
  defineHarnessCase,
  type ExpectedEffect,
  type FactoryContext,
  type HarnessCase,
  type HarnessFactory,
  type Requirements,
} from '@libos/conformance-harness';
import type { ErrorCode, LibosError } from '@libos/core';
import type { MemoryObject, ObjectMemory, ObjectMemoryOptions, ObjectStoreCapabilities, ObjectStoreQuota, ObjectStoreV1 } from '@libos/object-memory';

/** What a store factory receives: a place to register cleanups, run after the store is closed. */
export type StoreFactoryContext = FactoryContext;

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
export type StoreFactory = HarnessFactory<StoreUnderTest>;

/** A capability a case needs the store to declare. */
export type StoreCapabilityName = keyof ObjectStoreCapabilities;

/** An optional fixture a case needs: `openAnother`, a second instance on the same data. */
export type StoreFixture = 'openAnother';

/** What a case needs; a store or factory lacking any of it skips the case, with the reason (the provider kit's shape). */
export type StoreRequirements = Requirements<StoreCapabilityName, never, StoreFixture>;

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
   * Calls `action` and asserts it rejects with a LibosError of one of `codes` and effect `effect`
   * (default `none`), whose `details` match `OBJECT_STORE_ERROR_DETAILS`; returns it.
   */
  expectError(action: () => Promise<unknown>, codes: ErrorCode | readonly ErrorCode[], effect?: ExpectedEffect): Promise<LibosError>;
  /** An Object Memory on this store (`createObjectMemory({ store, ...options })`). */
  memory(options?: Omit<ObjectMemoryOptions, 'store'>): Promise<ObjectMemory>;
  /** A fresh temporary host directory, removed after the case. */
  temporaryDirectory(): Promise<string>;
}

/** One conformance check: stable id `<group> > <name>`, its requirements and its body. */
export type StoreCase = HarnessCase<StoreCaseContext, StoreRequirements>;

/** Makes a case whose id derives from its group and name. */
export function defineStoreCase(
  group: string,
  name: string,
  run: (context: StoreCaseContext) => Promise<void>,
  requires: StoreRequirements = {},
  timeoutScale = 1,
): StoreCase {
  return defineHarnessCase(group, name, run, requires, timeoutScale);
}
