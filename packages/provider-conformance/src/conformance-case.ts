import { defineHarnessCase, type HarnessCase, type Requirements } from '@libos/conformance-harness';
import type { ErrorCode, FileSystemProviderV1, LibosError, ProviderCapabilities, WorkspacePath } from '@libos/core';
import type { CaseFixtures } from './provider-fixtures.js';

/** A capability a case needs the provider to declare. */
export type CapabilityName = Exclude<keyof ProviderCapabilities, 'durableWrites'>;

/** An optional fixture a case needs the factory to provide. */
export type OptionalFixture = 'fifo' | 'hardLinkFromOutside' | 'modes' | 'removeWorkspace';

/** An optional provider method a case calls. */
export type OptionalMethod = 'rename' | 'appendFile' | 'copyFile' | 'readFileRange' | 'openDirectory' | 'checkPath' | 'searchTree';

/** What a case needs; a provider or fixture set lacking any of it skips the case, with the reason. */
export type CaseRequirements = Requirements<CapabilityName, OptionalMethod, OptionalFixture>;

/** What a case body works with: a fresh provider, its fixtures and the kit's checks. */
export interface CaseContext {
  readonly provider: FileSystemProviderV1;
  /** The factory's fixtures; every path they create is remembered for `snapshot`. */
  readonly fixtures: CaseFixtures;
  /** A canonical path from root-relative text. */
  path(text: string): WorkspacePath;
  /**
   * Awaits `action` and asserts it rejects with a LibosError of one of `codes`, with effect `effect`
   * (default `none`) and a message and details free of host paths, link targets and outside content.
   */
  expectError(action: () => Promise<unknown>, codes: ErrorCode | readonly ErrorCode[], effect?: 'none' | 'unknown' | 'any'): Promise<LibosError>;
  /** Asserts that no text the provider returned holds outside content or a host path. */
  expectClean(value: unknown): void;
  /** Kinds and bytes of every path the fixtures created, plus `extra`, as comparable text. */
  snapshot(extra?: readonly string[]): Promise<string>;
  /** Fails if `action` does not settle within `milliseconds`; for calls that must never block. */
  withinDeadline<T>(action: () => Promise<T>, milliseconds: number): Promise<T>;
}

/** One conformance check: stable id `<group> > <name>`, its requirements and its body. */
export type ConformanceCase = HarnessCase<CaseContext, CaseRequirements>;

/** Makes a case whose id derives from its group and name. */
export function defineCase(
  group: string,
  name: string,
  run: (context: CaseContext) => Promise<void>,
  requires: CaseRequirements = {},
  timeoutScale = 1,
): ConformanceCase {
  return defineHarnessCase(group, name, run, requires, timeoutScale);
}
