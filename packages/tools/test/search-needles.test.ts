import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { foldedSearchNeedles, searchNeedles } from '../src/search/search-needles.js';

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
    for (const pattern of ['foo|bar', '(?i)foo', 'a(?i:b)c', '\\Qa.b\\E', 'a{x}', '\\1', 'a(?)?', 'ab(?s)*', 'a(?U){0,2}']) {
      expect(needlesOf(pattern)).toEqual([]);
    }
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

  it('folds a case-insensitive search into ASCII pieces, cut at k, s and every character outside ASCII', () => {
    const folded = (query: string, regex = false) =>
      foldedSearchNeedles({ query, regex, caseSensitive: false, encoding: 'utf-8' }).map((needle) => Buffer.from(needle).toString('latin1'));
    expect(folded('FindTheNeedle')).toEqual(['findtheneedle']);
    expect(folded('Mask.Status')).toEqual(['ma', '.', 'tatu']);
    expect(folded('xİyÉz')).toEqual(['x', 'y', 'z']);
    expect(folded('find\\w+Needle\\(', true)).toEqual(['find', 'needle(']);
    expect(folded('a|b', true)).toEqual([]);
    expect(foldedSearchNeedles({ query: 'foo', regex: false, caseSensitive: true, encoding: 'utf-8' })).toEqual([]);
    expect(foldedSearchNeedles({ query: 'foo', regex: false, caseSensitive: false, encoding: 'latin1' })).toEqual([]);
  });

  it('keeps only letters RE2 folds within ASCII: every other ASCII letter matches nothing outside ASCII ignoring case', () => {
    // One pass: a class of those letters, case folded, run over every code point outside ASCII.
    const program = RE2JS.compile('[a-jl-rt-zA-JL-RT-Z]', RE2JS.CASE_INSENSITIVE);
    const points: string[] = [];
    for (let point = 0x80; point <= 0x10ffff; point++) if (point < 0xd800 || point > 0xdfff) points.push(String.fromCodePoint(point));
    const matcher = program.matcher(points.join(''));
    expect(matcher.find() ? matcher.group() : null).toBeNull();
    // The two RE2 folds out of ASCII, which is why k and s cut a piece.
    expect(RE2JS.compile('k', RE2JS.CASE_INSENSITIVE).matcher('\u212a').matches()).toBe(true);
    expect(RE2JS.compile('s', RE2JS.CASE_INSENSITIVE).matcher('\u017f').matches()).toBe(true);
  });

  it('never drops a file RE2 matches ignoring case: every folded piece is in every matching text, lowered', () => {
    const token = fc.constantFrom('a', 'B', 'k', 'S', 'é', 'É', 'İ', 'ı', '\u212a', '\u017f', '.', '*', '+', '?', '(', ')', '[', ']', '\\', '1');
    const scenario = fc.array(token, { minLength: 1, maxLength: 8 }).chain((tokens) =>
      fc.tuple(
        fc.constant(tokens.join('')),
        fc.array(
          fc.array(fc.constantFrom(...tokens, 'A', 'b', 'K', 's', '\u212a', '\u017f', 'i', '\n'), { maxLength: 12 }).map((parts) => parts.join('')),
          { minLength: 1, maxLength: 6 },
        ),
      ),
    );
    fc.assert(
      fc.property(scenario, fc.boolean(), ([pattern, texts], regex) => {
        let program: RE2JS;
        try {
          program = RE2JS.compile(regex ? pattern : RE2JS.quote(pattern), RE2JS.CASE_INSENSITIVE);
        } catch {
          return;
        }
        const pieces = foldedSearchNeedles({ query: pattern, regex, caseSensitive: false, encoding: 'utf-8' });
        for (const text of texts) {
          if (!text.split('\n').some((line) => program.matcher(line).find())) continue;
          const lowered = Buffer.from(text, 'utf8').map((byte) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte));
          for (const piece of pieces) expect(Buffer.from(lowered).indexOf(piece), `${pattern} over ${JSON.stringify(text)}`).not.toBe(-1);
        }
      }),
      { numRuns: 5_000 },
    );
  });
});
