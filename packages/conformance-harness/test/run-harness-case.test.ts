import { LibosError } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { defineHarnessCase, detailsDrift, expectLibosError, missingRequirement, runHarnessCase, uniqueCases } from '../src/index.js';
import type { HarnessBinding } from '../src/index.js';

interface Subject {
  readonly capabilities: { readonly shared: boolean; readonly leaseMs?: number };
  ping(): Promise<string>;
  close(): Promise<void>;
}

function subject(log: string[], closeFails = false): Subject {
  return Object.freeze({
    capabilities: { shared: false },
    ping: async () => 'pong',
    close: async () => {
      log.push('close');
      if (closeFails) throw new Error('close failed');
    },
  });
}

const binding: HarnessBinding<{ subject: Subject }, Subject, { subject: Subject; onCleanup(cleanup: () => void): void }> = {
  subject: (underTest) => underTest.subject,
  check: (testCase, underTest) => {
    const missing = missingRequirement(testCase.requires, {
      noun: 'store',
      capabilities: underTest.subject.capabilities,
      methods: underTest.subject,
      hasFixture: () => false,
    });
    return missing === undefined ? undefined : { status: 'skipped', reason: missing };
  },
  context: (_, hooks) => ({ subject: hooks.subject, onCleanup: hooks.onCleanup }),
};

describe('runHarnessCase', () => {
  it('runs the kit cleanups, then close, then the factory cleanups, each last registered first', async () => {
    const log: string[] = [];
    const testCase = defineHarnessCase(
      'g',
      'passes',
      async (context: { subject: Subject; onCleanup(cleanup: () => void): void }) => {
        expect(await context.subject.ping()).toBe('pong');
        context.onCleanup(() => void log.push('kit 1'));
        context.onCleanup(() => void log.push('kit 2'));
      },
      {},
    );
    const outcome = await runHarnessCase(
      testCase,
      ({ onCleanup }) => {
        onCleanup(() => void log.push('factory 1'));
        onCleanup(() => void log.push('factory 2'));
        return { subject: subject(log) };
      },
      binding,
      { timeoutMs: 1000 },
    );
    expect(outcome).toEqual({ status: 'passed' });
    expect(log).toEqual(['kit 2', 'kit 1', 'close', 'factory 2', 'factory 1']);
  });

  it('does not close again a (frozen) subject the case closed, and fails a passed case whose close throws', async () => {
    const log: string[] = [];
    const closing = defineHarnessCase('g', 'closes', async (context: { subject: Subject }) => context.subject.close(), {});
    expect(await runHarnessCase(closing, () => ({ subject: subject(log) }), binding, { timeoutMs: 1000 })).toEqual({ status: 'passed' });
    expect(log).toEqual(['close']);
    const plain = defineHarnessCase('g', 'plain', async () => {}, {});
    const outcome = await runHarnessCase(plain, () => ({ subject: subject([], true) }), binding, { timeoutMs: 1000 });
    expect(outcome.status).toBe('failed');
  });

  it('skips with the reason, fails a hanging case at its deadline, and refuses duplicate ids', async () => {
    const needsShared = defineHarnessCase('g', 'shared', async () => {}, { capabilities: ['shared'] });
    expect(await runHarnessCase(needsShared, () => ({ subject: subject([]) }), binding, { timeoutMs: 1000 })).toEqual({
      status: 'skipped',
      reason: 'the store does not declare capabilities.shared',
    });
    const hanging = defineHarnessCase('g', 'hangs', () => new Promise<void>(() => {}), {}, 2);
    const outcome = await runHarnessCase(hanging, () => ({ subject: subject([]) }), binding, { timeoutMs: 20 });
    expect(String((outcome as { error: Error }).error.message)).toContain('still running after 40 ms');
    expect(() => uniqueCases([plainCase(), plainCase()])).toThrow(/share the id/);
  });
});

function plainCase() {
  return defineHarnessCase('g', 'same', async () => {}, {});
}

describe('expectLibosError and detailsDrift', () => {
  const table = { name_taken: { required: ['namespace', 'name'], optional: [] } } as const;
  it('accepts the code and effect asked for, and says what came instead', async () => {
    const error = new LibosError('name_taken', 'Taken.', { details: { namespace: 'n', name: 'x' } });
    expect(await expectLibosError(() => Promise.reject(error), 'name_taken')).toBe(error);
    await expect(expectLibosError(() => Promise.resolve(1), 'name_taken')).rejects.toThrow('but the call succeeded with 1');
    await expect(expectLibosError(() => Promise.reject(error), 'not_found')).rejects.toThrow('Expected not_found, got name_taken');
    await expect(expectLibosError(() => Promise.reject(error), 'name_taken', 'unknown')).rejects.toThrow('with effect unknown, got none');
    await expect(expectLibosError(() => Promise.reject(new Error('plain')), 'name_taken')).rejects.toThrow('got Error: plain');
  });
  it('finds missing, unknown, camelCase and non-plain details keys', () => {
    const drift = (details: Record<string, unknown>) => detailsDrift(new LibosError('name_taken', 'x', { details }), table, 'TABLE');
    expect(drift({ namespace: 'n', name: 'x' })).toBeUndefined();
    expect(drift({ namespace: 'n' })).toContain('lack "name"');
    expect(drift({ namespace: 'n', name: 'x', extra: 1 })).toContain('see TABLE');
    expect(drift({ namespace: 'n', name: 'x', hostCode: 'E' })).toContain('not snake_case');
    expect(drift({ namespace: 'n', name: { a: 1 } })).toContain('not a plain value');
  });
});
