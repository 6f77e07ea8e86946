import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TreeSearchAnswer, WorkspacePath } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withSearchIndex } from '../src/index.js';
import { sandbox } from './support/sandbox.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
// The candidates of an answer by listings (the index answers so).
const candidatesOf = (answer: TreeSearchAnswer) => [...(answer.listings?.values() ?? [])].flatMap((listing) => [...listing.candidates]).sort();
const QUERY = { needles: [], alwaysNames: [], maxBytes: 1_048_576, maxEntries: 1000, maxCarriedBytes: 0 };

describe('an index asked a search that ignores case', () => {
  it('narrows by folded needles: a file holding the text in any ASCII case is a candidate, the others are not', async () => {
    const { root, index } = sandbox();
    mkdirSync(root, { recursive: true });
    const files = { 'upper.txt': 'FINDTHENEEDLE', 'mixed.txt': 'x fInDtHeNeEdLe y', 'lower.txt': 'findtheneedle', 'other.txt': 'find the hay' };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    const indexed = withSearchIndex(createLocalProvider({ root }), { directory: index });
    try {
      const answer = await indexed.provider.searchTree!('.' as WorkspacePath, { ...QUERY, foldedNeedles: [utf8('findtheneedle')] });
      expect(candidatesOf(answer)).toEqual(['lower.txt', 'mixed.txt', 'upper.txt']);
      // A search that keeps case narrows on the same folded filters, and never misses its exact bytes.
      const exact = await indexed.provider.searchTree!('.' as WorkspacePath, { ...QUERY, needles: [utf8('fInDtHeNeEdLe')] });
      // (folded, so every casing is a candidate: the tools match the exact bytes themselves).
      expect(candidatesOf(exact)).toEqual(['lower.txt', 'mixed.txt', 'upper.txt']);
    } finally {
      await indexed.provider.close();
    }
  });

  it('answers search_files ignoring case exactly as the walk does, on text cased every way (KELVIN SIGN and LONG S too)', async () => {
    const { root, index } = sandbox();
    mkdirSync(root, { recursive: true });
    const provider = createLocalProvider({ root });
    const indexed = withSearchIndex(provider, { directory: index });
    const { searchTree: _unused, ...walkOnly } = provider;
    const pushed = (await createRuntime({ provider: indexed.provider })).spawn();
    const walked = (await createRuntime({ provider: walkOnly })).spawn();
    const letter = fc.constantFrom('a', 'A', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'é', 'É', 'x', ' ', '\n');
    const text = fc.array(letter, { maxLength: 24 }).map((parts) => parts.join(''));
    let round = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), text, fc.boolean(), async (contents, query, regex) => {
          const directory = join(root, `r${round++}`);
          mkdirSync(directory);
          contents.forEach((content, at) => writeFileSync(join(directory, `f${at}.txt`), content));
          if (query.trim() === '') return;
          const call = { path: `r${round - 1}`, query, regex, case_sensitive: false };
          expect(await pushed.call('search_files', call)).toEqual(await walked.call('search_files', call));
        }),
        { numRuns: 150 },
      );
    } finally {
      await indexed.provider.close();
    }
  }, 120_000);
});
