import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/index.js';

// RFC 8785 appendix B: IEEE 754 bit patterns and their canonical text.
const NUMBERS: [string, string][] = [
  ['0000000000000000', '0'],
  ['8000000000000000', '0'],
  ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'],
  ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'],
  ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'],
  ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'],
  ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'],
  ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'],
  ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
  ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'],
  ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'],
  ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'],
  ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
];

const fromBits = (hex: string) => Buffer.from(hex, 'hex').readDoubleBE(0);

describe('canonicalJson (RFC 8785)', () => {
  it.each(NUMBERS)('prints the double %s as %s', (bits, text) => {
    expect(canonicalJson(fromBits(bits))).toBe(text);
  });

  it('refuses NaN and the infinities (7ff8000000000000, 7ff0000000000000)', () => {
    expect(() => canonicalJson(fromBits('7ff8000000000000'))).toThrow(TypeError);
    expect(() => canonicalJson(fromBits('7ff0000000000000'))).toThrow(TypeError);
    expect(() => canonicalJson(-Infinity)).toThrow(TypeError);
  });

  it('gives the RFC sample its canonical form (section 3.2.3)', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units (section 3.2.3)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    // Read from the text: a parsed object would list the integer-like key "1" first again.
    const keys = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((match) => JSON.parse(`"${match[1]}"`));
    expect(keys).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
  });

  it('refuses what JSON cannot hold, and stops at the length bound', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
    expect(() => canonicalJson('\ud800')).toThrow(TypeError);
    expect(() => canonicalJson('x'.repeat(100), { maxLength: 50 })).toThrow(RangeError);
    expect(canonicalJson('a\ud800', { loneSurrogates: 'escape' })).toBe('"a\\ud800"');
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });

  it('refuses a value nested past any stack with the same TypeError as a cycle, whatever the stack left', () => {
    let deep: unknown = [];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(TypeError);
    let object: unknown = {};
    for (let level = 0; level < 100_000; level += 1) object = { a: object };
    expect(() => canonicalJson(object, { maxLength: 1e9 })).toThrow(TypeError);
  });
});
