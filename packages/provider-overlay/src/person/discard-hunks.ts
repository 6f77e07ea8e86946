import { LibosError, type WorkspacePath } from '@libos/core';
import { sha256Hex } from '../agent/lower-files.js';
import type { OverlayContext } from '../overlay-context.js';
import { keptText, textOf } from '../state/overlay-texts.js';
import { mergeThreeWay } from './three-way-merge.js';

const encoder = new TextEncoder();

/**
 * Drops hunks `numbers` (as `diff` numbers them) of the agent's change at `path`, in the caller's
 * transaction: the agent's file becomes its base with the other hunks only, so the agent sees the
 * dropped lines as they were. With every hunk dropped the change goes, and the agent sees the lower.
 */
export function discardHunks(context: OverlayContext, path: WorkspacePath, numbers: readonly number[]): void {
  const row = context.rows.get(path);
  const base = row === undefined ? undefined : keptText(context, row.base_sha256);
  const texts =
    row !== undefined && row.kind === 'file' && row.base_kind === 'file' && (row.lower_bytes ?? 0) === 0 && base !== undefined
      ? [textOf(base), textOf(row.content ?? Buffer.alloc(0))]
      : [];
  const [baseText, theirText] = texts;
  if (row === undefined || baseText === undefined || theirText === undefined) {
    throw new LibosError('invalid_arguments', `'${path.slice(0, 200)}' is not a text file changed from a text file: its hunks cannot be selected.`, {
      details: { path: path.slice(0, 200), reason: 'hunks_not_text' },
    });
  }
  const count = mergeThreeWay(baseText, baseText, theirText).hunks;
  if (numbers.length === 0 || numbers.some((hunk) => !Number.isInteger(hunk) || hunk < 1 || hunk > count)) {
    throw new LibosError('invalid_arguments', `'${path.slice(0, 200)}' has hunks 1 to ${count}; name one or more of them.`, {
      details: { path: path.slice(0, 200), reason: 'no_such_hunk', hunks: count },
    });
  }
  const dropped = new Set(numbers);
  const keep = new Set(Array.from({ length: count }, (_, index) => index + 1).filter((hunk) => !dropped.has(hunk)));
  const kept = keep.size === 0 ? baseText : mergeThreeWay(baseText, baseText, theirText, keep).landed;
  if (kept === baseText) {
    context.rows.remove(path);
    return;
  }
  const bytes = encoder.encode(kept);
  context.rows.put({
    ...row,
    content: Buffer.from(bytes),
    sha256: sha256Hex(bytes),
    size: bytes.length,
    hash_state: null,
    modified_at: context.now(),
  });
}
