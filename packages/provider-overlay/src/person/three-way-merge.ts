import { DIFF_CONTEXT_LINES, diffLines } from '@libos/provider-kit';

/** One changed block of a side against the base: base lines [baseStart, baseEnd) became side lines [sideStart, sideEnd). */
interface Change {
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly sideStart: number;
  readonly sideEnd: number;
}

/** A change of the agent's side, with the number of the hunk `diff` shows it in (1-based). */
interface TheirChange extends Change {
  readonly hunk: number;
}

/** What a three-way merge of the agent's file onto the person's yields (docs/overlay.md, "Merge"). */
export interface MergeOutcome {
  /** The person's file with the agent's hunks that land: what is written to disk. */
  readonly landed: string;
  /** `landed` with every agent hunk that did not land: the agent's change that stays in the overlay. */
  readonly rest: string;
  /** How many hunks the agent's change has against its base, numbered as `diff` numbers them. */
  readonly hunks: number;
  /** The hunks that land, ascending. */
  readonly applied: readonly number[];
  /** The selected hunks that overlap an edit of the person's, ascending: they do not land. */
  readonly conflicts: readonly number[];
  /** Every hunk that overlaps an edit of the person's, selected or not. */
  readonly overlaps: readonly number[];
  /** The hunks the person's file already holds: every change of theirs made alike on both sides. */
  readonly present: readonly number[];
}

/** Lines with their `\n` kept, so a last line without one differs from the same line with one. */
export function textLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

function changesOf(base: readonly string[], side: readonly string[]): Change[] {
  const changes: Change[] = [];
  for (const run of diffLines(base, side)) {
    if (run.kind === 'equal') continue;
    const baseEnd = run.oldStart + (run.kind === 'delete' ? run.count : 0);
    const sideEnd = run.newStart + (run.kind === 'insert' ? run.count : 0);
    const last = changes.at(-1);
    // A delete next to an insert is one replaced block.
    if (last !== undefined && last.baseEnd === run.oldStart && last.sideEnd === run.newStart)
      changes[changes.length - 1] = { ...last, baseEnd, sideEnd };
    else changes.push({ baseStart: run.oldStart, baseEnd, sideStart: run.newStart, sideEnd });
  }
  return changes;
}

/** Numbers the agent's changes by hunk as the unified diff groups them: changes closer than twice the context share one. */
function numbered(changes: readonly Change[]): TheirChange[] {
  let hunk = 0;
  return changes.map((change, index) => {
    const previous = changes[index - 1];
    if (previous === undefined || change.baseStart - previous.baseEnd > 2 * DIFF_CONTEXT_LINES) hunk++;
    return { ...change, hunk };
  });
}

/** A stretch of the base that one side or both changed; both, when their changes overlap or touch. */
interface Region {
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly ours: readonly Change[];
  readonly theirs: readonly TheirChange[];
}

/**
 * The regions in base order. Two changes of different sides stand apart only when at least one
 * base line lies between them; touching changes are one region, as diff3 and `git merge-file` judge.
 */
function regionsOf(ours: readonly Change[], theirs: readonly TheirChange[]): Region[] {
  const regions: Region[] = [];
  let o = 0;
  let t = 0;
  while (o < ours.length || t < theirs.length) {
    const nextOurs = ours[o];
    const nextTheirs = theirs[t];
    const oursFirst = nextTheirs === undefined || (nextOurs !== undefined && nextOurs.baseStart <= nextTheirs.baseStart);
    const first = (oursFirst ? nextOurs : nextTheirs) as Change;
    const region = { baseStart: first.baseStart, baseEnd: first.baseEnd, ours: [] as Change[], theirs: [] as TheirChange[] };
    if (oursFirst) region.ours.push(ours[o++] as Change);
    else region.theirs.push(theirs[t++] as TheirChange);
    for (;;) {
      const o2 = ours[o];
      const t2 = theirs[t];
      if (o2 !== undefined && o2.baseStart <= region.baseEnd) {
        region.ours.push(o2);
        region.baseEnd = Math.max(region.baseEnd, o2.baseEnd);
        o++;
      } else if (t2 !== undefined && t2.baseStart <= region.baseEnd) {
        region.theirs.push(t2);
        region.baseEnd = Math.max(region.baseEnd, t2.baseEnd);
        t++;
      } else break;
    }
    regions.push(region);
  }
  return regions;
}

/** A side's lines over base lines [start, end), given the side's changes that fall inside and its offset before. */
function sideSlice(lines: readonly string[], inside: readonly Change[], before: number, start: number, end: number): string[] {
  const grow = inside.reduce((sum, change) => sum + (change.sideEnd - change.sideStart) - (change.baseEnd - change.baseStart), 0);
  return lines.slice(start + before, end + before + grow);
}

/**
 * Merges the agent's file (`theirs`) onto the person's (`ours`), both made from `base`, line by
 * line (diff3): a hunk of the agent's lands where the person changed nothing it overlaps or
 * touches; where both changed the same lines alike, the person's lines stay; elsewhere the hunk is
 * a conflict and lands not at all (a hunk lands whole or not). With `selected`, only those hunks
 * are landed; the others stay in `rest`. The person's lines are never dropped, moved or reordered.
 */
export function mergeThreeWay(base: string, ours: string, theirs: string, selected?: ReadonlySet<number>): MergeOutcome {
  const baseLines = textLines(base);
  const ourLines = textLines(ours);
  const theirLines = textLines(theirs);
  const ourChanges = changesOf(baseLines, ourLines);
  const theirChanges = numbered(changesOf(baseLines, theirLines));
  const hunks = theirChanges.at(-1)?.hunk ?? 0;
  const regions = regionsOf(ourChanges, theirChanges);
  const overlapping = new Set<number>();
  // Hunks with a change the person's file does not hold (no edit of theirs there at all).
  const absent = new Set<number>();
  // Offsets of each side before the current region: the region's lines on each side follow from them.
  let ourBefore = 0;
  let theirBefore = 0;
  const sides: { ourText: string[]; theirText: string[] }[] = [];
  for (const region of regions) {
    const ourText = sideSlice(ourLines, region.ours, ourBefore, region.baseStart, region.baseEnd);
    const theirText = sideSlice(theirLines, region.theirs, theirBefore, region.baseStart, region.baseEnd);
    sides.push({ ourText, theirText });
    ourBefore += ourText.length - (region.baseEnd - region.baseStart);
    theirBefore += theirText.length - (region.baseEnd - region.baseStart);
    const both = region.ours.length > 0 && region.theirs.length > 0;
    if (both && !sameLines(ourText, theirText)) for (const change of region.theirs) overlapping.add(change.hunk);
    else if (!both) for (const change of region.theirs) absent.add(change.hunk);
  }
  const lands = (hunk: number): boolean => !overlapping.has(hunk) && (selected === undefined || selected.has(hunk));
  const landed: string[] = [];
  const rest: string[] = [];
  let at = 0;
  regions.forEach((region, index) => {
    const between = baseLines.slice(at, region.baseStart);
    landed.push(...between);
    rest.push(...between);
    at = region.baseEnd;
    const { ourText, theirText } = sides[index] as { ourText: string[]; theirText: string[] };
    const baseText = baseLines.slice(region.baseStart, region.baseEnd);
    if (region.theirs.length === 0) {
      landed.push(...ourText);
      rest.push(...ourText);
    } else if (region.ours.length === 0) {
      const hunk = (region.theirs[0] as TheirChange).hunk;
      landed.push(...(lands(hunk) ? theirText : baseText));
      rest.push(...theirText);
    } else {
      // Both changed it: alike, the person's lines are already there; else the agent's wait in the overlay.
      landed.push(...ourText);
      rest.push(...(sameLines(ourText, theirText) ? ourText : theirText));
    }
  });
  const tail = baseLines.slice(at);
  landed.push(...tail);
  rest.push(...tail);
  const all = Array.from({ length: hunks }, (_, index) => index + 1);
  return {
    landed: landed.join(''),
    rest: rest.join(''),
    hunks,
    applied: all.filter(lands),
    conflicts: all.filter((hunk) => overlapping.has(hunk) && (selected === undefined || selected.has(hunk))),
    overlaps: all.filter((hunk) => overlapping.has(hunk)),
    present: all.filter((hunk) => !overlapping.has(hunk) && !absent.has(hunk)),
  };
}

function sameLines(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((line, index) => line === right[index]);
}
