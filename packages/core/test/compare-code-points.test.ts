import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../src/index.js';

describe('compareCodePoints', () => {
  it('agrees with comparing code point arrays on random strings', () => {
    const pool = ['a', 'Z', '\u00E9', '\uD7FF', '\uE000', '\uFF5E', '\uFFFF', '\u{10000}', '\u{1F600}', '\u{10FFFF}'];
    let seed = 42;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = (): string => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pool[Math.floor(random() * pool.length)]).join('');
    const reference = (left: string, right: string): number => {
      const a = [...left].map((c) => c.codePointAt(0)!);
      const b = [...right].map((c) => c.codePointAt(0)!);
      for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
      return a.length - b.length;
    };
    for (let round = 0; round < 2000; round++) {
      const left = word();
      const right = word();
      expect(Math.sign(compareCodePoints(left, right))).toBe(Math.sign(reference(left, right)));
    }
  });
});
