import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longestFittingPrefix, payloadByteLength } from '../src/index.js';

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

describe('longestFittingPrefix', () => {
  it('never splits a surrogate pair', () => {
    expect(longestFittingPrefix('ab😀cd', (prefix) => prefix.length <= 3)).toBe('ab');
    expect(longestFittingPrefix('ab😀cd', (prefix) => prefix.length <= 4)).toBe('ab😀');
    expect(longestFittingPrefix('😀😀', (prefix) => utf8(prefix) <= 7)).toBe('😀');
  });

  it('is undefined when nothing fits and the whole text when everything does', () => {
    expect(longestFittingPrefix('abc', () => false)).toBeUndefined();
    expect(longestFittingPrefix('abc', () => true)).toBe('abc');
    expect(longestFittingPrefix('', () => true)).toBe('');
  });

  it('finds the longest prefix whose payload JSON fits, for any text and bound', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 0, max: 200 }), (text, max) => {
        const fits = (prefix: string) => payloadByteLength({ content: prefix }) <= max;
        const found = longestFittingPrefix(text, fits);
        if (found === undefined) {
          expect(fits('')).toBe(false);
          return;
        }
        expect(text.startsWith(found)).toBe(true);
        expect(fits(found)).toBe(true);
        const codePoints = [...text];
        const kept = [...found].length;
        if (kept < codePoints.length) expect(fits(codePoints.slice(0, kept + 1).join(''))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
