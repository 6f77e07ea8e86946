import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceCases, runCase } from '../src/index.js';
import type { ProviderFactory } from '../src/index.js';
import type * as Example from '../src/example.js';
import { exampleMutants } from './example-mutants.js';

const source = readFileSync(fileURLToPath(new URL('../src/example/key-value-provider.ts', import.meta.url)), 'utf8');
const core = fileURLToPath(new URL('../../core/src/index.ts', import.meta.url));
const kit = fileURLToPath(new URL('../../provider-kit/src/index.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'libos-mutants-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type ExampleModule = typeof Example;

// The mutant lives outside the package, so its imports of values are pointed at core's and the kit's sources.
async function load(text: string, name: string): Promise<ExampleModule> {
  const file = join(work, `${name.replace(/[^a-z0-9]+/gi, '-')}.ts`);
  writeFileSync(
    file,
    text.replaceAll("from '@libos/core'", `from ${JSON.stringify(core)}`).replaceAll("from '@libos/provider-kit'", `from ${JSON.stringify(kit)}`),
  );
  return (await import(pathToFileURL(file).href)) as ExampleModule;
}

function factoryOf(module: ExampleModule): ProviderFactory {
  return () => {
    const store = module.createKeyValueStore();
    return { provider: module.createKeyValueProvider(store), fixtures: module.createKeyValueFixtures(store) };
  };
}

// The cases that declare themselves slow (a timeoutScale above 1: the deepest tree, most of a run's
// time on this example) go last, so a mutant a quick case catches never waits for them; a mutant
// only they catch, and the unmutated example, still run every case.
const quickFirst = [...conformanceCases].sort((left, right) => left.timeoutScale - right.timeoutScale);

/** The first case the kit fails, or undefined when it passes them all. */
async function firstFailure(factory: ProviderFactory): Promise<string | undefined> {
  for (const testCase of quickFirst) {
    const outcome = await runCase(testCase, factory, { timeoutMs: 30_000 });
    if (outcome.status === 'failed') return testCase.id;
  }
  return undefined;
}

describe('the kit fails every one-line mutant of the example provider', () => {
  it('the unmutated example loaded the same way passes every case', async () => {
    expect(await firstFailure(factoryOf(await load(source, 'original')))).toBeUndefined();
  }, 180_000);

  for (const mutant of exampleMutants) {
    it(mutant.name, async () => {
      expect(source.split(mutant.find).length - 1, `occurrences of ${JSON.stringify(mutant.find)}`).toBe(1);
      const mutated = source.replace(mutant.find, mutant.replace);
      expect(mutated.split('\n').length).toBe(source.split('\n').length);
      expect(await firstFailure(factoryOf(await load(mutated, mutant.name)))).toBeDefined();
    }, 180_000);
  }
});
