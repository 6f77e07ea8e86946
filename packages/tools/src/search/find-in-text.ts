/** The longest line text a match carries, in code points. */
export const MATCH_TEXT_MAX_CODE_POINTS = 500;

/** One matching line: 1-based line, 1-based column in code points, the line's first code points. */
export interface LineMatch {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/**
 * Calls `emit` for each line of `text` that holds `literal`, in order, at most once per line (at
 * its first occurrence); stops as soon as `emit` returns false. Lines end at `\n`; a `\r` before it
 * is not part of the line. The literal is found with indexOf over the whole text, skipping the
 * lines between. (Patterns run on the regex threads: see regex-pool.ts.)
 */
export function findLiteralLines(text: string, literal: string, emit: (match: LineMatch) => boolean): void {
  if (text.length === 0) return;
  findLiteral(text, literal, emit);
}

/** The match a worker's hit (line number, line bounds, match start) stands for in `text`. */
export function matchOfHit(text: string, hit: readonly [line: number, start: number, end: number, at: number]): LineMatch {
  const line = text.slice(hit[1], hit[2]);
  return { line: hit[0], column: codePointsBefore(line, hit[3] - hit[1]) + 1, text: firstCodePoints(line) };
}

function findLiteral(text: string, literal: string, emit: (match: LineMatch) => boolean): void {
  // No line holds a newline, so a query with one matches nothing.
  if (literal.includes('\n')) return;
  let lineNumber = 1;
  let counted = 0; // newlines before `counted` are already in lineNumber
  for (let at = text.indexOf(literal); at !== -1; ) {
    const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    for (let newline = text.indexOf('\n', counted); newline !== -1 && newline < start; newline = text.indexOf('\n', newline + 1)) {
      lineNumber++;
      counted = newline + 1;
    }
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    const line = stripReturn(text.slice(start, end));
    if (!emit({ line: lineNumber, column: codePointsBefore(line, at - start) + 1, text: firstCodePoints(line) })) return;
    if (newline === -1) return;
    at = text.indexOf(literal, newline + 1);
  }
}

function stripReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function codePointsBefore(line: string, unitIndex: number): number {
  let count = 0;
  for (let unit = 0; unit < unitIndex; unit++) {
    const code = line.charCodeAt(unit);
    if (code >= 0xd800 && code <= 0xdbff && unit + 1 < unitIndex) {
      const next = line.charCodeAt(unit + 1);
      if (next >= 0xdc00 && next <= 0xdfff) unit++;
    }
    count++;
  }
  return count;
}

function firstCodePoints(line: string): string {
  if (line.length <= MATCH_TEXT_MAX_CODE_POINTS) return line;
  let taken = 0;
  let end = 0;
  for (const character of line) {
    if (taken === MATCH_TEXT_MAX_CODE_POINTS) break;
    end += character.length;
    taken++;
  }
  return line.slice(0, end);
}
