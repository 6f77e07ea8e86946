import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LibosError } from '@libos/core';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyOptionalModule } from '../src/index.js';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A package directory holding `node_modules/NAME`, whose module counts how often it was loaded. */
function packageWith(name: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'libos-lazy-'));
  made.push(directory);
  mkdirSync(join(directory, 'node_modules', name), { recursive: true });
  writeFileSync(
    join(directory, 'node_modules', name, 'index.js'),
    'globalThis.__lazyLoads = (globalThis.__lazyLoads ?? 0) + 1; module.exports = { answer: 42 };',
  );
  return directory;
}

const refusal = { message: 'Install the thing beside the package.', reason: 'thing_unavailable' };

describe('lazyOptionalModule', () => {
  it('resolves the module from the declaring package, not from the kit, and loads it once', () => {
    const name = `libos-lazy-${process.pid}-a`;
    const from = pathToFileURL(join(packageWith(name), 'dist', 'index.js')).href;
    const load = lazyOptionalModule<{ answer: number }>(name, from, refusal);
    const before = (globalThis as { __lazyLoads?: number }).__lazyLoads ?? 0;
    expect(load().answer).toBe(42);
    expect(load()).toBe(load());
    expect((globalThis as { __lazyLoads?: number }).__lazyLoads).toBe(before + 1);
    // The kit's own location does not see a module installed beside another package.
    expect(() => lazyOptionalModule(name, import.meta.url, refusal)()).toThrow(LibosError);
  });

  it('refuses a missing module with provider_failure, effect none and the caller reason, on every call', () => {
    const load = lazyOptionalModule(`libos-lazy-${process.pid}-missing`, import.meta.url, refusal);
    for (let attempt = 0; attempt < 2; attempt++) {
      let caught: unknown;
      try {
        load();
      } catch (error) {
        caught = error;
      }
      expect(LibosError.is(caught, 'provider_failure')).toBe(true);
      expect(caught).toMatchObject({ message: refusal.message, effect: 'none', details: { reason: 'thing_unavailable' } });
    }
  });
});
