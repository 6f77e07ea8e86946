// The run says how long it took, just above its last line, so the README's time can be checked.
import { describe, expect, it } from 'vitest';
import { elapsedLine, formatElapsed } from '../vitest/elapsed.js';

describe('elapsed time', () => {
  it('reads as minutes and seconds', () => {
    expect(formatElapsed(0)).toBe('0 s');
    expect(formatElapsed(48_400)).toBe('48 s');
    expect(formatElapsed(552_000)).toBe('9 min 12 s');
    expect(formatElapsed(3_600_000)).toBe('60 min 0 s');
  });

  it('adds the whole command when pnpm test said when it started, and only then', () => {
    expect(elapsedLine(61_000, undefined, 0)).toBe('tests took 1 min 1 s');
    expect(elapsedLine(61_000, 'not a time', 0)).toBe('tests took 1 min 1 s');
    expect(elapsedLine(61_000, '1000', 1_000_000 + 125_000)).toBe(
      'tests took 1 min 1 s; pnpm test took 2 min 5 s in all (lint, build, services, tests)',
    );
  });
});
