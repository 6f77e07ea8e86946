import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFilter, mayHold, needleHashes } from '../src/trigram-filter.js';

describe('a trigram filter', () => {
  it('never says no to a needle the bytes hold, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(), fc.nat({ max: 40 }), (bytes, from, length) => {
        const start = bytes.length === 0 ? 0 : from % bytes.length;
        const needle = bytes.subarray(start, start + length);
        expect(mayHold(buildFilter(bytes), needleHashes([needle]))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('says no to most needles the bytes do not hold', () => {
    const filter = buildFilter(new TextEncoder().encode('export const value = compute(1, 2); // an ordinary line\n'.repeat(50)));
    const absent = ['findTheNeedle', 'zebra', 'qqq', 'import', 'valuable'].filter((word) =>
      mayHold(filter, needleHashes([new TextEncoder().encode(word)])),
    );
    expect(absent.length).toBeLessThanOrEqual(1);
  });
});
