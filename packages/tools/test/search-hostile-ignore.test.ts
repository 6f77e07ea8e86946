import { describe, expect, it } from 'vitest';
import { createTestbed } from './support/harness.js';

type Bed = Awaited<ReturnType<typeof createTestbed>>;

const DEADLINE_MS = 1000;
const LONG_NAME = 'a'.repeat(200);

// A tree of long names: each path costs every ignore pattern its whole length.
async function longNames(bed: Bed, directory: string, count: number) {
  for (let index = 0; index < count; index++) await bed.fixtures.writeFile(`${directory}/${LONG_NAME}${index}/${LONG_NAME}.txt`, 'token\n');
}

/**
 * Runs a call while a 10 ms interval counts its turns. A walk that held the event loop (today's
 * ignore matching did, for tens of seconds) lets it turn once or twice; one that pauses every few
 * milliseconds lets it turn about once per 10 ms of the deadline. Only a count far below that is
 * asserted, and the elapsed time only against a bound ten times the deadline.
 */
async function measured(call: () => Promise<Record<string, unknown>>) {
  let ticks = 0;
  const interval = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    const result = await call();
    return { result, ticks, elapsed: performance.now() - started };
  } finally {
    clearInterval(interval);
  }
}

describe('search_files and find_files against hostile ignore rules', () => {
  it('holds the deadline and keeps the event loop turning with a crafted .gitignore of a megabyte', async () => {
    const bed = await createTestbed();
    // Every line a distinct pattern of many stars: compiled and matched against every long path.
    const lines: string[] = [];
    for (let size = 0, index = 0; size < 1_000_000; index++) {
      // A trailing `*`: no shortcut on the last character turns a path away.
      const line = `${'*a'.repeat(30)}b${index}*`;
      lines.push(line);
      size += line.length + 1;
    }
    await bed.fixtures.writeFile('.gitignore', `${lines.join('\n')}\n`);
    await longNames(bed, 'sub', 40);
    for (const [tool, args] of [
      ['search_files', { path: 'sub', query: 'token', deadline_ms: DEADLINE_MS }],
      ['find_files', { path: '.', glob: '**/*.txt', deadline_ms: DEADLINE_MS }],
    ] as const) {
      const { result, ticks, elapsed } = await measured(() => bed.ok(tool, args));
      expect(result).toMatchObject({ stopped: 'deadline', truncated: true });
      expect(ticks).toBeGreaterThan(10);
      expect(elapsed).toBeLessThan(DEADLINE_MS * 10);
    }
  }, 60_000);

  it('holds the deadline and keeps the event loop turning with 100 exclude globs of 4,096 characters', async () => {
    const bed = await createTestbed();
    await longNames(bed, 'deep', 40);
    // `**/a` over and over: a program with a run alive at every directory, against every long path.
    const exclude = Array.from({ length: 100 }, (_, index) => `${'**/a'.repeat(1023)}${String(index).padStart(3, '0')}*`);
    expect(exclude.every((glob) => glob.length === 4096)).toBe(true);
    for (const tool of ['search_files', 'find_files'] as const) {
      const args = tool === 'search_files' ? { path: '.', query: 'token' } : { path: '.', glob: '**' };
      const { result, ticks, elapsed } = await measured(() => bed.ok(tool, { ...args, exclude, deadline_ms: DEADLINE_MS }));
      expect(result).toMatchObject({ stopped: 'deadline', truncated: true });
      expect(ticks).toBeGreaterThan(10);
      expect(elapsed).toBeLessThan(DEADLINE_MS * 10);
    }
  }, 60_000);

  it('still applies a .gitignore in full: a rule past a megabyte of others, and one line past the pattern bound skipped', async () => {
    const bed = await createTestbed();
    const filler = Array.from({ length: 20_000 }, (_, index) => `nothing-here-${index}.tmp`).join('\n');
    await bed.fixtures.writeFile('.gitignore', `${filler}\n${'x'.repeat(5000)}*\n*.secret\n`);
    await bed.fixtures.writeFile('keep.txt', 'token\n');
    await bed.fixtures.writeFile('hide.secret', 'token\n');
    await bed.fixtures.writeFile(`${'x'.repeat(200)}.txt`, 'token\n');
    const result = await bed.ok('search_files', { path: '.', query: 'token' });
    expect((result.matches as { path: string }[]).map((match) => match.path).sort()).toEqual(['keep.txt', `${'x'.repeat(200)}.txt`]);
    expect(result).toMatchObject({ skipped_ignored: 1, stopped: null });
  }, 60_000);
});
