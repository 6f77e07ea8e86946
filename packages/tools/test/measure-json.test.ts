import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureJson } from '../src/measure-json.js';

describe('measureJson', () => {
  it('counts exactly the UTF-8 bytes of JSON.stringify for any JSON value, lone surrogates included', () => {
    const value = fc.oneof(fc.jsonValue(), fc.array(fc.string({ unit: 'binary' })), fc.dictionary(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true })));
    fc.assert(
      fc.property(fc.oneof(value, fc.string({ unit: 'binary' })), (input) => {
        expect(measureJson(input, Number.MAX_SAFE_INTEGER)).toEqual({ plain: true, bytes: Buffer.byteLength(JSON.stringify(input), 'utf8') });
      }),
      { numRuns: 2000 },
    );
  });

  it('flags what JSON cannot carry exactly', () => {
    const shared = { a: 1 };
    for (const input of [undefined, Number.NaN, -Infinity, 1n, () => 1, Symbol('s'), new Date(0), [1, , 3], { a: undefined }, { shared, again: shared }, Object.create({ inherited: 1 })]) {
      expect(measureJson(input, 1000).plain, String(input)).toBe(false);
    }
    expect(measureJson(Object.create(null), 10)).toEqual({ plain: true, bytes: 2 });
  });

  it('stops counting once the limit is passed', () => {
    const measure = measureJson({ big: 'x'.repeat(1000), more: ['y'.repeat(1000)] }, 10);
    expect(measure.bytes).toBeGreaterThan(10);
    expect(measure.bytes).toBeLessThan(2000);
  });
});
