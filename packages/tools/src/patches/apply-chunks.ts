import { LibosError } from '@libos/core';
import type { PatchChunk } from './parse-patch.js';
import { joinTextLines, splitTextLines } from './text-lines.js';

/** Counts line comparisons across one patch, so no patch can make locating its changes slow. */
export interface SearchBudget {
  spend(steps: number): void;
}

/** A budget of `steps` comparisons; past it, `too_large` (nothing has been written by then). */
export function searchBudget(steps: number): SearchBudget {
  let left = steps;
  return {
    spend(count) {
      left -= count;
      if (left >= 0) return;
      throw new LibosError(
        'too_large',
        'The patch needs too much searching to locate its changes; split it into smaller patches. Nothing was changed.',
        {
          details: { max_steps: steps },
        },
      );
    },
  };
}

/**
 * Applies an update's chunks to a file's text. Each chunk is located before anything changes: its
 * anchors in order (each the first line at or after the search point that reads exactly as given),
 * then its kept and removed lines, which must occur exactly once from there on (at the very end
 * with `*** End of File`); the next chunk is searched after it. A chunk found nowhere or more than
 * once fails the whole patch with `edit_mismatch`, naming the file, the chunk and the patch line.
 * Lines compare by content, their endings aside; kept lines keep their own ending, added lines take
 * the file's (CRLF when every line break of the file is CRLF), and the file's last line keeps or
 * lacks its newline as before.
 */
export function applyChunks(path: string, text: string, chunks: readonly PatchChunk[], budget: SearchBudget): string {
  const file = splitTextLines(text);
  const contents: string[] = [];
  const endings: string[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const where = locate(path, file.contents, cursor, chunk, index, budget);
    for (let line = cursor; line < where; line++) {
      contents.push(file.contents[line]!);
      endings.push(file.endings[line]!);
    }
    let at = where;
    for (const line of chunk.lines) {
      if (line.op === '+') {
        contents.push(line.text);
        endings.push(file.newline);
        continue;
      }
      if (line.op === ' ') {
        contents.push(file.contents[at]!);
        endings.push(file.endings[at]!);
      }
      at++;
    }
    cursor = at;
  });
  for (let line = cursor; line < file.contents.length; line++) {
    contents.push(file.contents[line]!);
    endings.push(file.endings[line]!);
  }
  // Only the last line may lack a newline, and it does exactly when the file's did.
  const lastHadNone = file.endings.length > 0 && file.endings[file.endings.length - 1] === '';
  for (let line = 0; line < endings.length; line++) if (endings[line] === '') endings[line] = file.newline;
  if (lastHadNone && endings.length > 0) endings[endings.length - 1] = '';
  return joinTextLines(contents, endings);
}

function locate(path: string, lines: readonly string[], from: number, chunk: PatchChunk, index: number, budget: SearchBudget): number {
  let start = from;
  for (const anchor of chunk.anchors) {
    let found = -1;
    for (let line = start; line < lines.length; line++) {
      if (lines[line] === anchor.text) {
        found = line;
        break;
      }
    }
    budget.spend((found === -1 ? lines.length : found + 1) - start);
    if (found === -1)
      throw mismatch(path, index, chunk.line, 0, `its "@@ ${shorten(anchor.text)}" line (patch line ${anchor.line}) is not in the file`);
    start = found + 1;
  }
  const old = chunk.lines.filter((line) => line.op !== '+').map((line) => line.text);
  // Only added lines: right after the anchor, or at the end of the file without one.
  if (old.length === 0) return chunk.anchors.length > 0 && !chunk.endOfFile ? start : lines.length;
  const found = occurrences(lines, start, old, budget);
  const candidates = chunk.endOfFile ? found.filter((position) => position === lines.length - old.length) : found;
  if (candidates.length === 1) return candidates[0]!;
  const reason = candidates.length === 0 ? 'its lines are not in the file' : `its lines occur ${candidates.length} times`;
  throw mismatch(path, index, chunk.line, candidates.length, chunk.endOfFile && candidates.length === 0 ? `${reason} at its end` : reason);
}

/**
 * Every position at or after `start` where `pattern` occurs, overlapping ones included: KMP over
 * line identities, so a huge run of equal lines costs lines + pattern, never their product.
 */
function occurrences(lines: readonly string[], start: number, pattern: readonly string[], budget: SearchBudget): number[] {
  budget.spend(lines.length - start + pattern.length);
  const failure = new Int32Array(pattern.length);
  for (let index = 1, matched = 0; index < pattern.length; index++) {
    while (matched > 0 && pattern[index] !== pattern[matched]) matched = failure[matched - 1]!;
    if (pattern[index] === pattern[matched]) matched++;
    failure[index] = matched;
  }
  const found: number[] = [];
  for (let line = start, matched = 0; line < lines.length; line++) {
    while (matched > 0 && lines[line] !== pattern[matched]) matched = failure[matched - 1]!;
    if (lines[line] === pattern[matched]) matched++;
    if (matched === pattern.length) {
      found.push(line - pattern.length + 1);
      matched = failure[matched - 1]!;
    }
  }
  return found;
}

function mismatch(path: string, chunk: number, line: number, occurrences: number, reason: string): LibosError {
  return new LibosError('edit_mismatch', `The change at patch line ${line} for "${path}" cannot be placed: ${reason}. Nothing was changed.`, {
    details: { path, chunk, line, occurrences },
  });
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
