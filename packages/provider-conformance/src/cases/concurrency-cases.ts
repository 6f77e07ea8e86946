import { LibosError } from '@libos/core';
import { expect } from 'vitest';
import { describeValue } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { text, yieldTurn } from './case-helpers.js';

// Different lengths and fill bytes, so a torn, truncated or mixed read cannot pass for either version.
const versionA = new Uint8Array(64 * 1024).fill(0x61);
const versionB = new Uint8Array(24 * 1024).fill(0x62);
// Even, so the last replace writes version A again.
const replaces = 40;

function whichVersion(bytes: Uint8Array | null): 'A' | 'B' | null {
  if (bytes === null) return null;
  if (bytes.length === versionA.length && bytes.every((byte) => byte === 0x61)) return 'A';
  if (bytes.length === versionB.length && bytes.every((byte) => byte === 0x62)) return 'B';
  return null;
}

/** Readers racing a writer see the old or the new bytes, never a mix, an empty file or no file. */
export const atomicReplaceCases: readonly ConformanceCase[] = [
  defineCase(
    'atomic replace',
    'concurrent readers see only the old or the new bytes',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('f', versionA);
      let done = false;
      const reader = async (viaFixtures: boolean): Promise<number> => {
        let reads = 0;
        while (!done) {
          let bytes: Uint8Array | null;
          try {
            bytes = viaFixtures ? await fixtures.readFile('f') : (await provider.readFile(path('f'), { maxBytes: 1 << 20 })).bytes;
          } catch (error) {
            throw new Error(`A read during a replace failed: ${LibosError.is(error) ? error.code : describeValue(error)}.`);
          }
          const version = whichVersion(bytes);
          if (version === null) throw new Error(`A read during a replace saw ${bytes === null ? 'no file' : `${bytes.length} mixed bytes`}.`);
          reads++;
          await yieldTurn();
        }
        return reads;
      };
      const writer = async (): Promise<void> => {
        try {
          for (let round = 0; round < replaces; round++) {
            await provider.writeFile(path('f'), round % 2 === 0 ? versionB : versionA, { overwrite: true });
            await yieldTurn();
          }
        } finally {
          done = true;
        }
      };
      const [, ...reads] = await Promise.all([writer(), reader(false), reader(false), reader(true)]);
      expect(reads.every((count) => count > 0)).toBe(true);
      expect(whichVersion(await fixtures.readFile('f'))).toBe('A');
    },
    { capabilities: ['atomicReplace'] },
  ),
];

/** Of racing exclusive creators exactly one wins, and its bytes stay. */
export const exclusiveCreateCases: readonly ConformanceCase[] = [
  defineCase(
    'exclusive create',
    'racing creators with overwrite:false: exactly one wins and its bytes stay',
    async ({ provider, fixtures, path }) => {
      for (let round = 0; round < 20; round++) {
        const target = path(`race/${round}`);
        const attempts = ['first', 'second', 'third'].map(async (content) => {
          try {
            await provider.writeFile(target, new TextEncoder().encode(content), { overwrite: false });
            return content;
          } catch (error) {
            if (!LibosError.is(error, 'already_exists')) throw error;
            return null;
          }
        });
        const winners = (await Promise.all(attempts)).filter((content) => content !== null);
        expect(winners).toHaveLength(1);
        expect(text(await fixtures.readFile(`race/${round}`))).toBe(winners[0]);
      }
    },
    { capabilities: ['exclusiveCreate'] },
  ),
];
