import type { Requirements } from './harness-case.js';

/** What a requirement is checked against: the subject's declared capabilities, the subject itself, and the fixtures present. */
export interface RequirementSubject {
  /** `provider`, `store`: used in skip reasons. */
  readonly noun: string;
  readonly capabilities: object;
  /** The object whose optional methods are looked up. */
  readonly methods: object;
  /** Whether the factory provides a fixture, by the name a case requires it with. */
  hasFixture(name: string): boolean;
  /** How a fixture is named in a skip reason (default: its requirement name). */
  fixtureLabel?(name: string): string;
}

/** Says which capability, method or fixture a case lacks, or undefined when it can run. */
export function missingRequirement(requires: Requirements, subject: RequirementSubject): string | undefined {
  for (const capability of requires.capabilities ?? []) {
    const value: unknown = (subject.capabilities as Record<string, unknown>)[capability];
    if (value === undefined || value === false) return `the ${subject.noun} does not declare capabilities.${capability}`;
  }
  for (const method of requires.methods ?? []) {
    if (typeof (subject.methods as Record<string, unknown>)[method] !== 'function') return `the ${subject.noun} has no ${method} method`;
  }
  for (const fixture of requires.fixtures ?? []) {
    if (!subject.hasFixture(fixture)) return `the factory does not provide ${subject.fixtureLabel?.(fixture) ?? fixture}`;
  }
  return undefined;
}
