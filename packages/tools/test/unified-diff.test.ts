import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiffLines } from '../src/edits/unified-diff.js';

// Applies a unified diff the way `patch` would, checking every context and removed line on the way.
function applyDiff(oldText: string, lines: readonly string[]): string {
  const oldLines = oldText.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const output: string[] = [];
  let cursor = 0;
  let index = 2;
  while (index < lines.length) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[index]!);
    if (header === null) throw new Error(`bad hunk header ${lines[index]}`);
    const oldStart = Number(header[1]);
    const oldCount = header[2] === undefined ? 1 : Number(header[2]);
    const start = oldCount === 0 ? oldStart : oldStart - 1;
    while (cursor < start) output.push(oldLines[cursor++]!);
    index++;
    while (index < lines.length && !lines[index]!.startsWith('@@')) {
      const line = lines[index]!;
      const noNewline = lines[index + 1] === '\\ No newline at end of file';
      const body = line.slice(1) + (noNewline ? '' : '\n');
      if (line[0] === ' ' || line[0] === '-') {
        expect(oldLines[cursor]).toBe(body);
        cursor++;
      }
      if (line[0] === ' ' || line[0] === '+') output.push(body);
      index += noNewline ? 2 : 1;
    }
  }
  while (cursor < oldLines.length) output.push(oldLines[cursor++]!);
  return output.join('');
}

describe('unified diff', () => {
  it('is empty for equal texts and patches any text into any other', () => {
    expect(unifiedDiffLines('f', 'same\n', 'same\n')).toEqual([]);
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', 'd', '\r\n', '\n'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = unifiedDiffLines('f', before, after);
        if (before === after) return lines.length === 0;
        return applyDiff(before, lines) === after;
      }),
      { numRuns: 500 },
    );
  });

  it('stays correct and quick when the texts share nothing (the budgeted fallback)', () => {
    const before = Array.from({ length: 30_000 }, (_, index) => `old ${index}\n`).join('');
    const after = Array.from({ length: 30_000 }, (_, index) => `new ${index}\n`).join('');
    const lines = unifiedDiffLines('f', before, after);
    expect(applyDiff(before, lines)).toBe(after);
  });
});
