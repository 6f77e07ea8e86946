import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureJson } from '../src/measure-json.js';

describe('measureJson', () => {
  it('counts exactly the UTF-8 bytes of JSON.stringify for any JSON value, lone surrogates included', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.array(fc.string({ unit: 'binary' })),
      fc.dictionary(fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    );
    fc.assert(
      fc.property(fc.oneof(value, fc.string({ unit: 'binary' })), (input) => {
        const json = JSON.stringify(input);
        expect(measureJson(input, Number.MAX_SAFE_INTEGER)).toEqual({ plain: true, bytes: Buffer.byteLength(json, 'utf8'), json });
      }),
      { numRuns: 2000 },
    );
  });

  it('flags what JSON cannot carry exactly', () => {
    const shared = { a: 1 };
    for (const input of [
      undefined,
      Number.NaN,
      -Infinity,
      1n,
      () => 1,
      Symbol('s'),
      new Date(0),
      [1, , 3],
      { a: undefined },
      { shared, again: shared },
      Object.create({ inherited: 1 }),
    ]) {
      expect(measureJson(input, 1000).plain, String(input)).toBe(false);
    }
    expect(measureJson(Object.create(null), 10)).toEqual({ plain: true, bytes: 2, json: '{}' });
  });

  it('counts what JSON.stringify refuses iteratively, stopping once past the limit', () => {
    let deep: unknown = 'x';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(measureJson(deep, Number.MAX_SAFE_INTEGER)).toEqual({ plain: true, bytes: 2 * 200_000 + 3 });
    const capped = measureJson(deep, 1000);
    expect(capped.bytes).toBeGreaterThan(1000);
    expect(capped.bytes).toBeLessThan(1100);
    expect(measureJson({ n: 1n }, 1000)).toMatchObject({ plain: false });
  });

  it('counts strings exactly on the iterative path too, lone surrogates and escapes included', () => {
    const depth = 20_000;
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        let deep: unknown = text;
        for (let level = 0; level < depth; level++) deep = [deep];
        expect(measureJson(deep, Number.MAX_SAFE_INTEGER)).toEqual({
          plain: true,
          bytes: 2 * depth + Buffer.byteLength(JSON.stringify(text), 'utf8'),
        });
      }),
      { numRuns: 100, examples: [['"\\\u0000\u001f\b\t\n\f\r\u007f\ud800x\udc00\u{1F600}é€']] },
    );
  });

  it('flags accessors, proxies, symbol keys and hidden keys without running them', () => {
    let runs = 0;
    const getter = Object.defineProperty({}, 'a', { enumerable: true, get: () => ++runs });
    const hidden = Object.defineProperty({ a: 1 }, 'toJSON', { value: () => ({}), enumerable: false });
    const hiddenArray = Object.defineProperty([1, 2], 'toJSON', { value: () => [], enumerable: false });
    for (const input of [getter, new Proxy({ a: 1 }, {}), { a: new Proxy([], {}) }, { a: 1, [Symbol('s')]: 2 }, hidden, [hiddenArray]]) {
      expect(measureJson(input, 1000).plain).toBe(false);
    }
    expect(runs).toBe(1); // JSON.stringify's own read; the walk reads descriptors only
  });

  it('treats a throwing getter as not plain', () => {
    const hostile = Object.defineProperty({}, 'path', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(measureJson(hostile, 1000)).toEqual({ plain: false, bytes: 0 });
  });
});
