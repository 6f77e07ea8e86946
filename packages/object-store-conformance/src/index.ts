export { describeObjectStore } from './describe-object-store.js';
export type { DescribeObjectStoreOptions } from './describe-object-store.js';
export { storeConformanceCases } from './store-conformance-cases.js';
export { defineStoreCase } from './store-case.js';
export type {
  StoreCapabilityName,
  StoreCase,
  StoreCaseContext,
  StoreFactory,
  StoreFactoryContext,
  StoreFixture,
  StoreRequirements,
  StoreUnderTest,
} from './store-case.js';
export { DEFAULT_STORE_CASE_TIMEOUT_MS, missingStoreRequirement, runStoreCase } from './run-store-case.js';
export type { RunStoreCaseOptions, StoreCaseOutcome } from './run-store-case.js';
export { UNREACHED_QUOTA } from './store-case-context.js';
