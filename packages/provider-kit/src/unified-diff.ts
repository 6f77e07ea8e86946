import { diffLines, type DiffRun } from './line-diff.js';
import { utf8ByteLength } from '@libos/core';

/** Lines of context around each change, as `diff -u` prints by default. */
export const DIFF_CONTEXT_LINES = 3;

/** A unified diff cut to a byte budget, and whether it was cut. */
export interface BoundedDiff {
  readonly diff: string;
  readonly truncated: boolean;
}

/**
 * The lines of a unified diff of two texts, headers and hunks, each without its final newline.
 * The texts may be windows of two files that hold the same lines outside them (see `diffWindow`),
 * starting at 0-based line `firstLine` of both.
 */
export function unifiedDiffLines(path: string, oldText: string, newText: string, firstLine = 0): string[] {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const runs = diffLines(oldLines, newLines);
  if (runs.every((run) => run.kind === 'equal')) return [];
  const output = [`--- ${quoted(`a/${path}`)}`, `+++ ${quoted(`b/${path}`)}`];
  for (const hunk of hunksOf(runs)) {
    output.push(`@@ -${range(firstLine + hunk.oldStart, hunk.oldCount)} +${range(firstLine + hunk.newStart, hunk.newCount)} @@`);
    for (const run of hunk.runs) {
      const sign = run.kind === 'equal' ? ' ' : run.kind === 'delete' ? '-' : '+';
      const source = run.kind === 'insert' ? newLines : oldLines;
      const start = run.kind === 'insert' ? run.newStart : run.oldStart;
      for (let index = start; index < start + run.count; index++) {
        const line = source[index]!;
        if (line.endsWith('\n')) output.push(sign + line.slice(0, -1));
        else output.push(sign + line, '\\ No newline at end of file');
      }
    }
  }
  return output;
}

/**
 * Joins diff lines while the JSON string of the result stays within `maxJsonBytes` (escapes
 * counted), cutting only between lines.
 */
export function boundDiff(lines: readonly string[], maxJsonBytes: number): BoundedDiff {
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    // JSON of the line plus its `\n` escape, without the quotes.
    const cost = utf8ByteLength(JSON.stringify(line));
    if (used + cost > maxJsonBytes) break;
    used += cost;
    kept++;
  }
  const diff = kept === 0 ? '' : `${lines.slice(0, kept).join('\n')}\n`;
  return { diff, truncated: kept < lines.length };
}

/** Lines with their `\n` kept, so a last line without one differs from the same line with one. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

interface Hunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly runs: readonly DiffRun[];
}

/** Groups changes with DIFF_CONTEXT_LINES equal lines around them; changes closer than twice that share a hunk. */
function hunksOf(runs: readonly DiffRun[]): Hunk[] {
  const hunks: Hunk[] = [];
  let current: DiffRun[] = [];
  const close = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const last = current[current.length - 1]!;
    const oldEnd = last.kind === 'insert' ? last.oldStart : last.oldStart + last.count;
    const newEnd = last.kind === 'delete' ? last.newStart : last.newStart + last.count;
    hunks.push({
      oldStart: first.oldStart,
      oldCount: oldEnd - first.oldStart,
      newStart: first.newStart,
      newCount: newEnd - first.newStart,
      runs: current,
    });
    current = [];
  };
  runs.forEach((run, index) => {
    if (run.kind !== 'equal') {
      current.push(run);
      return;
    }
    const isFirst = index === 0;
    const isLast = index === runs.length - 1;
    if (!isFirst && run.count <= 2 * DIFF_CONTEXT_LINES && !isLast) {
      current.push(run);
      return;
    }
    if (!isFirst) current.push({ ...run, count: Math.min(DIFF_CONTEXT_LINES, run.count) });
    close();
    if (!isLast) {
      const lead = Math.min(DIFF_CONTEXT_LINES, run.count);
      const skip = run.count - lead;
      current.push({ kind: 'equal', oldStart: run.oldStart + skip, newStart: run.newStart + skip, count: lead });
    }
  });
  close();
  return hunks.filter((hunk) => hunk.runs.some((run) => run.kind !== 'equal'));
}

/** `start,count` with 1-based lines; an empty range names the line before it, as diff does. */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

/** A header path quoted the way git quotes one, when it holds characters that would break the line. */
function quoted(path: string): string {
  return /[\u0000-\u001f\u007f"\\\u2028\u2029]/u.test(path) ? JSON.stringify(path) : path;
}
