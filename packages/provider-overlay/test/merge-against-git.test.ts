import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiffLines } from '@libos/provider-kit';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeThreeWay } from '../src/person/three-way-merge.js';

// The merge is judged against `git merge-file` on generated three-way cases: where git merges
// cleanly the bytes are the same, and where git reports a conflict libOS reports one too. Lines are
// unique within each file (an edit writes new lines named after where it stands), so both tools see
// the same line alignment; both sides may make the same edit, which both tools take once.

const directory = mkdtempSync(join(tmpdir(), 'libos-merge-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function gitMerge(base: string, ours: string, theirs: string): { conflicts: number; text: string } {
  writeFileSync(join(directory, 'base'), base);
  writeFileSync(join(directory, 'ours'), ours);
  writeFileSync(join(directory, 'theirs'), theirs);
  const run = spawnSync('git', ['merge-file', '-p', 'ours', 'base', 'theirs'], { cwd: directory, encoding: 'utf8' });
  if (run.status === null || run.status < 0) throw new Error(`git merge-file failed: ${run.stderr}`);
  return { conflicts: run.status, text: run.stdout };
}

/** One side's edit at each base line: keep, delete or replace it, and lines to insert before it. */
const edit = fc.record({
  line: fc.constantFrom('keep', 'keep', 'keep', 'delete', 'replace'),
  insert: fc.nat(2),
  // 'same': the other side's edit at this line, if it made one (both sides did the same thing).
  variant: fc.constantFrom('a', 'b'),
});

const threeWay = fc.integer({ min: 0, max: 14 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    ours: fc.array(edit, { minLength: size + 1, maxLength: size + 1 }),
    theirs: fc.array(edit, { minLength: size + 1, maxLength: size + 1 }),
    cut: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  }),
);

function sideText(size: number, edits: readonly { line: string; insert: number; variant: string }[]): string {
  const lines: string[] = [];
  edits.forEach((step, index) => {
    for (let count = 0; count < step.insert; count++) lines.push(`I${index}.${count}${step.variant}\n`);
    if (index === size) return; // the gap after the last line
    if (step.line === 'keep') lines.push(`L${index}\n`);
    else if (step.line === 'replace') lines.push(`R${index}${step.variant}\n`);
  });
  return lines.join('');
}

const baseText = (size: number) => Array.from({ length: size }, (_, index) => `L${index}\n`).join('');
const cutLast = (text: string, cut: boolean) => (cut && text.endsWith('\n') ? text.slice(0, -1) : text);

describe('three-way merge agrees with git merge-file', () => {
  it('same bytes where git merges cleanly, a conflict where git reports one', () => {
    let clean = 0;
    let conflicting = 0;
    fc.assert(
      fc.property(threeWay, ({ size, ours, theirs, cut }) => {
        const base = cutLast(baseText(size), cut[0]);
        const ourText = cutLast(sideText(size, ours), cut[1]);
        const theirText = cutLast(sideText(size, theirs), cut[2]);
        const git = gitMerge(base, ourText, theirText);
        const merged = mergeThreeWay(base, ourText, theirText);
        if (git.conflicts === 0) {
          clean++;
          expect(merged.conflicts).toEqual([]);
          expect(merged.landed).toBe(git.text);
          expect(merged.rest).toBe(merged.landed);
        } else {
          conflicting++;
          expect(merged.conflicts.length).toBeGreaterThan(0);
        }
      }),
      // A fixed seed: the counts below are of one known sample, so the test never fails by a thin draw.
      { numRuns: 300, seed: 20261207 },
    );
    // Both outcomes were exercised, else the comparison proves little.
    expect(clean).toBeGreaterThan(10);
    expect(conflicting).toBeGreaterThan(20);
  });

  it('keeps every line of the person in order, and the rest of the agent in the overlay', () => {
    fc.assert(
      fc.property(threeWay, ({ size, ours, theirs }) => {
        const base = baseText(size);
        const ourText = sideText(size, ours);
        const theirText = sideText(size, theirs);
        const merged = mergeThreeWay(base, ourText, theirText);
        // The person's lines that were not in the base are all there, in their order.
        const own = ourText.split('\n').filter((line) => line !== '' && !base.includes(`${line}\n`));
        const landedLines = merged.landed.split('\n');
        let cursor = 0;
        for (const line of own) {
          const found = landedLines.indexOf(line, cursor);
          expect(found).toBeGreaterThanOrEqual(cursor);
          cursor = found + 1;
        }
        // Merging the rest onto what landed, with nothing moved since, gives the agent's rest exactly.
        const again = mergeThreeWay(merged.landed, merged.landed, merged.rest);
        expect(again.conflicts).toEqual([]);
        expect(again.landed).toBe(merged.rest);
      }),
      { numRuns: 300 },
    );
  });

  it('numbers hunks as the unified diff shows them', () => {
    const base = Array.from({ length: 40 }, (_, index) => `line ${index}\n`).join('');
    const lines = base.split('\n');
    lines[2] = 'two';
    lines[9] = 'nine';
    lines[30] = 'thirty';
    const theirs = lines.join('\n');
    const shown = unifiedDiffLines('f', base, theirs).filter((line) => line.startsWith('@@')).length;
    const merged = mergeThreeWay(base, base, theirs, new Set([2]));
    expect(merged.hunks).toBe(shown);
    expect(merged.hunks).toBe(2);
    // Hunk 2 alone lands: line 30 changes, lines 2 and 9 (hunk 1) wait in the rest.
    expect(merged.landed).toBe(base.replace('line 30\n', 'thirty\n'));
    expect(merged.rest).toBe(theirs);
    expect(merged.applied).toEqual([2]);
    // Once hunk 2 is on the file, a merge says so.
    expect(mergeThreeWay(base, merged.landed, theirs).present).toEqual([2]);
  });
});
