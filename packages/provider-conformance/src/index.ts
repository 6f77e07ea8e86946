export { OUTSIDE_MARKER, sha256Hex } from './case-context.js';
export { defineCase } from './conformance-case.js';
export type { CapabilityName, CaseContext, CaseRequirements, ConformanceCase, OptionalFixture } from './conformance-case.js';
export { conformanceCases } from './conformance-cases.js';
export { describeProvider } from './describe-provider.js';
export type { DescribeProviderOptions } from './describe-provider.js';
export type { FactoryContext, ProviderFactory, ProviderFixtures, ProviderUnderTest } from './provider-fixtures.js';
export { DEFAULT_CASE_TIMEOUT_MS, runCase } from './run-case.js';
export type { CaseOutcome, RunCaseOptions } from './run-case.js';
