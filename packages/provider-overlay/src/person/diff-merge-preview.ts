import { escapeForDisplay } from '@libos/core';
import { unifiedDiffLines } from '@libos/provider-kit';
import type { EntryRow } from '../state/entry-rows.js';
import { sha256Hex } from '../agent/lower-files.js';
import type { OverlayContext } from '../overlay-context.js';
import { keptText, textOf } from '../state/overlay-texts.js';
import { mergeThreeWay } from './three-way-merge.js';

/** Numbers the hunk headers of unified diff lines `@@ … @@ #1`, `#2`, …, as apply and discard name them. */
export function numberHunks(lines: readonly string[]): string[] {
  let hunk = 0;
  return lines.map((line) => (line.startsWith('@@ ') && line.endsWith(' @@') ? `${line} #${++hunk}` : line));
}

/**
 * The diff of a text file the person edited since the agent's base (docs/overlay.md, "Merge"): the
 * agent's hunks against its own base, numbered, then what an apply would do: which hunks land and
 * which overlap the person's edits, and the merged file against the person's as a preview.
 * Undefined when the base was not kept or one side is not text: the caller shows the disk instead.
 */
export function mergePreview(context: OverlayContext, row: EntryRow, disk: Uint8Array, current: Uint8Array): string[] | undefined {
  const base = keptText(context, row.base_sha256);
  if (base === undefined || (row.lower_bytes ?? 0) !== 0) return undefined;
  const [baseText, ourText, theirText] = [textOf(base), textOf(disk), textOf(current)];
  if (baseText === undefined || ourText === undefined || theirText === undefined) return undefined;
  const path = escapeForDisplay(row.path);
  const outcome = mergeThreeWay(baseText, ourText, theirText);
  const agent = numberHunks(unifiedDiffLines(row.path, baseText, theirText));
  const landing = outcome.applied.filter((hunk) => !outcome.present.includes(hunk));
  const verdict = [
    outcome.overlaps.length === 0
      ? `# merge: every hunk merges cleanly onto your file (sha256 ${sha256Hex(disk)})`
      : `# merge: hunks ${outcome.overlaps.join(', ')} overlap your edits (overlapping_edit) and would stay; ${
          landing.length === 0 ? 'none lands' : `hunks ${landing.join(', ')} land`
        }`,
    ...(outcome.present.length === 0 ? [] : [`# merge: hunks ${outcome.present.join(', ')} are on your file already`]),
  ];
  const preview = unifiedDiffLines(row.path, ourText, outcome.landed).map((line) =>
    line.startsWith('--- ') ? `--- yours/${path}` : line.startsWith('+++ ') ? `+++ merged/${path}` : line,
  );
  return [
    `# note: ${path} changed on disk since the agent's change was made; its hunks are shown against the agent's base`,
    ...agent,
    ...verdict,
    ...(preview.length === 0
      ? ['# merged preview: your file stays as it is']
      : ['# merged preview: what apply would write over your file', ...preview]),
  ];
}
