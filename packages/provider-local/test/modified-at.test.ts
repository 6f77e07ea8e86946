import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { modifiedAt } from '../src/modified-at.js';

const statusAt = (mtimeMs: number) => ({ mtimeMs, mtime: new Date(Math.round(mtimeMs)) }) as Stats;

describe('modifiedAt', () => {
  it('gives the text of status.mtime.toISOString() for every millisecond it is asked, cached or not', () => {
    const samples = [
      1733048400123.699, 1733048400123.5, 1733048400999.599, 1733048400000, 1733048400001.2, 1733048400010, 1733048400100, 1733048400999.4, 0, 0.4,
      -0.6, -1, -999.5, -1000, -1001, 951782400000, 253402300799999, 253402300800000, -62167219200000, -62167219200001, -8.64e15, 8.64e15,
    ];
    // Each sample twice in a row and once after another second, so both the cached and the fresh path run.
    for (const mtimeMs of [...samples, ...samples.flatMap((value) => [value, value + 0.2, Math.min(value + 1000, 8.64e15)])]) {
      const status = statusAt(mtimeMs);
      expect(modifiedAt(status), String(mtimeMs)).toBe(status.mtime.toISOString());
    }
    for (let step = 0; step < 5000; step++) {
      const status = statusAt(1733048400000 + step * 0.731);
      expect(modifiedAt(status)).toBe(status.mtime.toISOString());
    }
  });

  it('refuses a time past the Date range as toISOString does', () => {
    expect(() => modifiedAt(statusAt(8.64e15 + 1000))).toThrow(RangeError);
  });
});
