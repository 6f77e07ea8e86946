import { LibosError } from '@libos/core';
import { expect } from 'vitest';
import { describeValue } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { CaseContext, ConformanceCase } from '../conformance-case.js';
import { yieldTurn } from './case-helpers.js';

const big = (fill: number): Uint8Array => new Uint8Array(256 * 1024).fill(fill);

/** Runs `body` with listers and readers going until it settles; returns how many rounds they made. */
async function whileRunning(body: () => Promise<void>, watchers: ReadonlyArray<(stop: () => boolean) => Promise<number>>): Promise<number[]> {
  let done = false;
  const stop = () => done;
  const writer = (async () => {
    try {
      await body();
    } finally {
      done = true;
    }
  })();
  const [, ...rounds] = await Promise.all([writer, ...watchers.map((watch) => watch(stop))]);
  return rounds;
}

function lister(context: CaseContext, directory: string, allowed: readonly string[]) {
  return async (stop: () => boolean): Promise<number> => {
    let rounds = 0;
    while (!stop()) {
      const listing = await context.provider.listDirectory(context.path(directory), { limit: 100 });
      const strays = listing.entries.map((entry) => entry.name).filter((name) => !allowed.includes(name));
      if (strays.length > 0) throw new Error(`A listing of '${directory}' during a write showed ${describeValue(strays)}.`);
      rounds++;
      await yieldTurn();
    }
    return rounds;
  };
}

/** Reads `file` until stopped: each read must be no file at all, or every byte of `expected`. */
function wholeOrNothing(context: CaseContext, file: string, expected: () => Uint8Array, viaFixtures: boolean) {
  const same = (bytes: Uint8Array) => bytes.length === expected().length && bytes.every((byte, index) => byte === expected()[index]);
  return async (stop: () => boolean): Promise<number> => {
    let rounds = 0;
    while (!stop()) {
      let bytes: Uint8Array | null = null;
      try {
        bytes = viaFixtures
          ? await context.fixtures.readFile(file)
          : (await context.provider.readFile(context.path(file), { maxBytes: 1 << 20 })).bytes;
      } catch (error) {
        if (!LibosError.is(error, 'not_found')) throw new Error(`A read of '${file}' during its creation failed: ${describeValue(error)}.`);
      }
      if (bytes !== null && !same(bytes)) throw new Error(`A read of '${file}' during its creation saw ${bytes.length} bytes, not the whole file.`);
      rounds++;
      await yieldTurn();
    }
    return rounds;
  };
}

/**
 * A provider's temporaries stay its own: no listing ever shows one, and a new file is never seen
 * empty or partial. Applies to every provider: one without temporaries passes trivially.
 */
export const stagingCases: readonly ConformanceCase[] = [
  defineCase('temporaries', 'listings during writes show only the names written', async (context) => {
    const { provider, fixtures, path } = context;
    await fixtures.writeFile('d/keep', 'kept');
    const rounds = await whileRunning(async () => {
      for (let round = 0; round < 12; round++) {
        await provider.writeFile(path('d/f'), big(round), { overwrite: true });
        await provider.writeFile(path(`d/new-${round % 2}`), big(round), { overwrite: false }).catch((error: unknown) => {
          if (!LibosError.is(error, 'already_exists')) throw error;
        });
        await provider.writeFile(path('d/g'), big(round), round === 0 ? { overwrite: true, expectedSha256: 'missing' } : { overwrite: true });
        await yieldTurn();
      }
    }, [lister(context, 'd', ['f', 'g', 'keep', 'new-0', 'new-1']), lister(context, '.', ['d'])]);
    expect(rounds.every((count) => count > 0)).toBe(true);
    const after = await provider.listDirectory(path('d'), { limit: 100 });
    expect(after.entries.map((entry) => entry.name)).toEqual(['f', 'g', 'keep', 'new-0', 'new-1']);
    expect((await provider.listDirectory(path('.'), { limit: 100 })).entries.map((entry) => entry.name)).toEqual(['d']);
  }),
  ...(['overwrite: false', "expectedSha256: 'missing'", 'overwrite: true'] as const).map((mode) =>
    defineCase('temporaries', `a file created with ${mode} is never seen empty or partial`, async (context) => {
      const { provider, path } = context;
      for (let round = 0; round < 8; round++) {
        const file = `c/${round}`;
        const bytes = big(0x41 + round);
        const options =
          mode === 'overwrite: false'
            ? { overwrite: false }
            : mode === 'overwrite: true'
              ? { overwrite: true }
              : { overwrite: true, expectedSha256: 'missing' };
        const rounds = await whileRunning(async () => {
          await yieldTurn();
          expect(await provider.writeFile(path(file), bytes, options)).toEqual({ created: true });
        }, [wholeOrNothing(context, file, () => bytes, false), wholeOrNothing(context, file, () => bytes, true)]);
        expect(rounds.every((count) => count > 0)).toBe(true);
      }
    }),
  ),
];
