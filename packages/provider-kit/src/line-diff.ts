/** One run of a line edit script: `equal` lines are in both texts, `delete` only in the old, `insert` only in the new. */
export interface DiffRun {
  readonly kind: 'equal' | 'delete' | 'insert';
  /** First line of the run in the old text (for delete/equal) or where it would be (insert). */
  readonly oldStart: number;
  readonly newStart: number;
  readonly count: number;
}

// Myers' algorithm costs about (old + new lines) x edit distance; past this many steps the changed
// middle is reported as one replaced block, which is still a correct diff, just not the smallest.
const WORK_BUDGET = 20_000_000;
// The trace keeps about d^2 integers after d steps: this caps it near 16 MB.
const TRACE_BUDGET = 4_000_000;

/**
 * A line diff of two line lists: common prefix and suffix first, then Myers' greedy shortest edit
 * script on the middle, within a fixed work budget so no pair of texts can make it slow.
 */
export function diffLines(oldLines: readonly string[], newLines: readonly string[]): DiffRun[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix++;
  }
  const runs: DiffRun[] = [];
  const push = (kind: DiffRun['kind'], oldStart: number, newStart: number, count: number) => {
    if (count === 0) return;
    const last = runs[runs.length - 1];
    if (
      last !== undefined &&
      last.kind === kind &&
      last.oldStart + (kind === 'insert' ? 0 : last.count) === oldStart &&
      last.newStart + (kind === 'delete' ? 0 : last.count) === newStart
    ) {
      runs[runs.length - 1] = { ...last, count: last.count + count };
      return;
    }
    runs.push({ kind, oldStart, newStart, count });
  };
  push('equal', 0, 0, prefix);
  const oldEnd = oldLines.length - suffix;
  const newEnd = newLines.length - suffix;
  const script = middleScript(oldLines, newLines, prefix, oldEnd, prefix, newEnd);
  if (script === undefined) {
    push('delete', prefix, prefix, oldEnd - prefix);
    push('insert', oldEnd, prefix, newEnd - prefix);
  } else {
    for (const step of script) push(step.kind, step.oldStart, step.newStart, step.count);
  }
  push('equal', oldEnd, newEnd, suffix);
  return runs;
}

function middleScript(
  oldLines: readonly string[],
  newLines: readonly string[],
  oldFrom: number,
  oldTo: number,
  newFrom: number,
  newTo: number,
): DiffRun[] | undefined {
  // Lines as small integers, so the inner loop compares numbers, not strings.
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const a = Int32Array.from({ length: oldTo - oldFrom }, (_, index) => idOf(oldLines[oldFrom + index]!));
  const b = Int32Array.from({ length: newTo - newFrom }, (_, index) => idOf(newLines[newFrom + index]!));
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  const offset = max + 1;
  const frontier = new Int32Array(2 * max + 3);
  // Only the [-d, d] window of each step is kept, so memory is O(d^2), bounded by the work budget.
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= max; d++) {
    trace.push(frontier.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!) ? frontier[offset + k + 1]! : frontier[offset + k - 1]! + 1;
      let y = x - k;
      const snakeStart = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      work += 1 + x - snakeStart;
      frontier[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, n, m, oldFrom, newFrom);
    }
    if (work > WORK_BUDGET || (d + 1) * (d + 1) > TRACE_BUDGET) return undefined;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], final: number, n: number, m: number, oldFrom: number, newFrom: number): DiffRun[] {
  const steps: DiffRun[] = [];
  let x = n;
  let y = m;
  for (let d = final; d > 0; d--) {
    const previous = trace[d]!; // the frontier as it was before step d, window [-d, d]
    const at = (k: number) => previous[k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    const startX = down ? previousX : previousX + 1;
    const startY = startX - k;
    if (x > startX) steps.push({ kind: 'equal', oldStart: oldFrom + startX, newStart: newFrom + startY, count: x - startX });
    if (down) steps.push({ kind: 'insert', oldStart: oldFrom + previousX, newStart: newFrom + previousY, count: 1 });
    else steps.push({ kind: 'delete', oldStart: oldFrom + previousX, newStart: newFrom + previousY, count: 1 });
    x = previousX;
    y = previousY;
  }
  if (x > 0) steps.push({ kind: 'equal', oldStart: oldFrom, newStart: newFrom, count: x });
  return steps.reverse();
}
