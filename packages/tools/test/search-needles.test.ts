import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { searchNeedles } from '../src/search/search-needles.js';

const needlesOf = (query: string, regex = true) =>
  searchNeedles({ query, regex, caseSensitive: true, encoding: 'utf-8' }).map((needle) => Buffer.from(needle).toString('utf8'));

describe('search needles', () => {
  it('takes the literal runs every match passes through, and nothing a match may skip', () => {
    expect(needlesOf('foo.*bar')).toEqual(['foo', 'bar']);
    expect(needlesOf('ab+c')).toEqual(['ab', 'c']);
    expect(needlesOf('abc?d')).toEqual(['ab', 'd']);
    expect(needlesOf('a{2}b')).toEqual(['b']);
    expect(needlesOf('x[[:alpha:]]]y')).toEqual(['x', 'y']);
    expect(needlesOf('\\pLab\\x41cd\\p{Greek}ef')).toEqual(['ab', 'cd', 'ef']);
    expect(needlesOf('\\.env\\b')).toEqual(['.env']);
    expect(needlesOf('(foo)bar')).toEqual(['bar']);
    expect(needlesOf('café', false)).toEqual(['café']);
  });

  it('gives none where a needle could be wrong', () => {
    for (const pattern of ['foo|bar', '(?i)foo', 'a(?i:b)c', '\\Qa.b\\E', 'a{x}', '\\1']) expect(needlesOf(pattern)).toEqual([]);
    expect(searchNeedles({ query: 'foo', regex: false, caseSensitive: false, encoding: 'utf-8' })).toEqual([]);
    expect(searchNeedles({ query: 'foo', regex: false, caseSensitive: true, encoding: 'utf-16le' })).toEqual([]);
    expect(searchNeedles({ query: '\ud800x', regex: false, caseSensitive: true, encoding: 'utf-8' })).toEqual([]);
  });

  it('never drops a line RE2 matches: every needle is in every text with a matching line', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      'é',
      '.',
      '*',
      '+',
      '?',
      '|',
      '(',
      ')',
      '[',
      ']',
      '^',
      '$',
      '\\',
      '{',
      '}',
      '1',
      ',',
      ':',
      '-',
      'd',
      'p',
      'Q',
      'x',
    );
    // Texts made of the pattern's own characters (repeated, dropped, reordered) are the ones that match it.
    const scenario = fc.array(token, { minLength: 1, maxLength: 8 }).chain((tokens) =>
      fc.tuple(
        fc.constant(tokens.join('')),
        fc.array(
          fc.array(fc.constantFrom(...tokens, 'a', 'b', '\n'), { maxLength: 12 }).map((parts) => parts.join('')),
          { minLength: 1, maxLength: 6 },
        ),
      ),
    );
    fc.assert(
      fc.property(scenario, ([pattern, texts]) => {
        let program: RE2JS;
        try {
          program = RE2JS.compile(pattern);
        } catch {
          return;
        }
        const needles = needlesOf(pattern);
        for (const candidate of texts) {
          const matches = candidate.split('\n').some((line) => program.matcher(line).find());
          if (matches) for (const needle of needles) expect(candidate, `${pattern} over ${JSON.stringify(candidate)}`).toContain(needle);
        }
      }),
      { numRuns: 20_000 },
    );
  });
});
