import { compareCodePoints } from '@libos/core';
import { describe, expect, it } from 'vitest';
import { SmallestItems } from '../src/index.js';

describe('SmallestItems', () => {
  it('keeps the limit smallest of a shuffled stream, sorted, and says it overflowed', () => {
    const names = Array.from({ length: 500 }, (_, index) => `n${String(index).padStart(3, '0')}`);
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    const kept = new SmallestItems<string>(7, compareCodePoints);
    for (const name of shuffled) kept.offer(name);
    expect(kept.sorted()).toEqual(names.slice(0, 7));
    expect(kept.overflowed).toBe(true);
  });

  it('does not overflow at exactly the limit', () => {
    const kept = new SmallestItems<string>(3, compareCodePoints);
    for (const name of ['c', 'a', 'b']) kept.offer(name);
    expect(kept.sorted()).toEqual(['a', 'b', 'c']);
    expect(kept.overflowed).toBe(false);
  });

  it('orders astral names after U+FF5E, by code point', () => {
    const kept = new SmallestItems<string>(2, compareCodePoints);
    for (const name of ['\u{1F600}', 'z', '\uFF5E']) kept.offer(name);
    expect(kept.sorted()).toEqual(['z', '\uFF5E']);
  });

  it('agrees with sorting everything and taking the first limit, for random streams and limits', () => {
    let seed = 7;
    const random = (below: number): number => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * below);
    for (let round = 0; round < 300; round++) {
      const stream = Array.from({ length: random(200) }, () => `n${random(80)}`);
      const limit = 1 + random(40);
      const kept = new SmallestItems<string>(limit, compareCodePoints);
      for (const name of stream) kept.offer(name);
      const expected = [...stream].sort(compareCodePoints);
      expect(kept.sorted()).toEqual(expected.slice(0, limit));
      expect(kept.overflowed).toBe(stream.length > limit);
    }
  });
});
