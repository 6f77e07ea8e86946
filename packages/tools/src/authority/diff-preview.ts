import { escapeForDisplay } from '@libos/core';

/** The most characters a whole diff preview may take; a change that needs more is not shown at all. */
export const DIFF_PREVIEW_MAX_CHARACTERS = 16_384;
/** The most characters of one line's changed span (escaped); a longer span cannot be shown. */
export const CHANGED_SPAN_MAX_CHARACTERS = 1024;
/** Characters of unchanged text shown on each side of a changed span. */
const MARGIN_CHARACTERS = 48;
/** Characters shown of an unchanged context line. */
const CONTEXT_MAX_CHARACTERS = 120;

/** A diff as an approver sees it, or why it cannot be shown whole. */
export type DiffPreview = { readonly text: string; readonly unshown?: undefined } | { readonly unshown: string };

/**
 * An edit's unified diff for a person (docs/rules.md, approvals): one real line per diff line, each
 * line's content escaped (so no content can pose as a diff line), and every changed line present.
 * A long line shows a window around what changed, on the old and on the new line alike (the span
 * between the common prefix and suffix of a removed line and the added line paired with it), with
 * what is left out written `\[N characters not shown]`; `escapeForDisplay` writes every backslash of
 * content as `\\`, so that marker cannot be content. Unchanged context lines may be shortened the
 * same way. When one changed span or the whole preview exceeds its bound, nothing is shown and the
 * reason is returned instead: an approval never shows part of a change as if it were all of it.
 */
export function diffPreview(lines: readonly string[]): DiffPreview {
  const shown: string[] = [];
  let used = 0;
  const push = (line: string) => {
    shown.push(line);
    used += line.length + 1;
  };
  for (let index = 0; index < lines.length; ) {
    const line = lines[index]!;
    // The two file headers, and hunk headers: ours, not content (a content line always has a sign).
    if (index < 2 || line.startsWith('@@') || line.startsWith('\\')) {
      push(index < 2 || line.startsWith('@@') ? escapeForDisplay(line) : line);
      index++;
      continue;
    }
    if (line.startsWith(' ')) {
      push(` ${head(line.slice(1), CONTEXT_MAX_CHARACTERS)}`);
      index++;
      continue;
    }
    // A block of removed lines and the added lines after it: the k-th of each are paired.
    const removed: number[] = [];
    const added: number[] = [];
    while (index < lines.length && (lines[index]!.startsWith('-') || lines[index]!.startsWith('\\'))) removed.push(index++);
    while (index < lines.length && (lines[index]!.startsWith('+') || lines[index]!.startsWith('\\'))) added.push(index++);
    if (removed.length + added.length === 0) {
      push(escapeForDisplay(line)); // no diff line starts otherwise; shown whole rather than lost
      index++;
      continue;
    }
    const oldLines = removed.filter((at) => lines[at]!.startsWith('-'));
    const newLines = added.filter((at) => lines[at]!.startsWith('+'));
    const rendered = new Map<number, string>();
    for (let pair = 0; pair < Math.max(oldLines.length, newLines.length); pair++) {
      const before = oldLines[pair] === undefined ? undefined : lines[oldLines[pair]!]!.slice(1);
      const after = newLines[pair] === undefined ? undefined : lines[newLines[pair]!]!.slice(1);
      const [prefix, suffix] = before === undefined || after === undefined ? [0, 0] : commonEnds(before, after);
      for (const [at, text] of [
        [oldLines[pair], before],
        [newLines[pair], after],
      ] as const) {
        if (at === undefined || text === undefined) continue;
        const window = changeWindow(text, prefix, text.length - suffix);
        if (window === undefined) {
          return { unshown: `a changed line holds more than ${CHANGED_SPAN_MAX_CHARACTERS} characters of change` };
        }
        rendered.set(at, window);
      }
    }
    for (const at of [...removed, ...added]) {
      const sign = lines[at]![0]!;
      push(sign === '\\' ? lines[at]! : `${sign}${rendered.get(at) ?? ''}`);
    }
    if (used > DIFF_PREVIEW_MAX_CHARACTERS) break;
  }
  if (used > DIFF_PREVIEW_MAX_CHARACTERS) {
    return { unshown: `the changed lines need more than ${DIFF_PREVIEW_MAX_CHARACTERS} characters` };
  }
  return { text: shown.join('\n') };
}

/** Lengths of the common prefix and suffix of two lines, in UTF-16 units, never splitting a surrogate pair. */
function commonEnds(a: string, b: string): [number, number] {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(a.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (suffix < shorter - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  if (suffix > 0 && isLowSurrogate(a.charCodeAt(a.length - suffix))) suffix--;
  return [prefix, suffix];
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The changed span `[start, end)` of a line, escaped whole, with up to MARGIN characters around it. */
function changeWindow(text: string, start: number, end: number): string | undefined {
  const change = escapeForDisplay(text.slice(start, end));
  if (change.length > CHANGED_SPAN_MAX_CHARACTERS) return undefined;
  const before = Array.from(text.slice(0, start));
  const after = Array.from(text.slice(end));
  const keptBefore = before.slice(Math.max(0, before.length - MARGIN_CHARACTERS));
  const keptAfter = after.slice(0, MARGIN_CHARACTERS);
  return (
    elided(before.length - keptBefore.length) +
    escapeForDisplay(keptBefore.join('')) +
    change +
    escapeForDisplay(keptAfter.join('')) +
    elided(after.length - keptAfter.length)
  );
}

/** The start of an unchanged line, at most `max` characters, and how much is left out. */
function head(text: string, max: number): string {
  const characters = Array.from(text);
  return escapeForDisplay(characters.slice(0, max).join('')) + elided(characters.length - Math.min(max, characters.length));
}

function elided(count: number): string {
  return count === 0 ? '' : `\\[${count} ${count === 1 ? 'character' : 'characters'} not shown]`;
}
