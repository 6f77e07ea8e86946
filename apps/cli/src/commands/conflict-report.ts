import { type FileSystemProviderV1, LibosError, escapeForDisplay, parseCanonicalPath } from '@libos/core';
import { boundDiff, unifiedDiffLines } from '@libos/provider-kit';
import type { OverlayConflict } from '@libos/provider-overlay';

/** The most bytes of each side read for a conflict's diff, and the most printed per conflict. */
const SIDE_MAX_BYTES = 256 * 1024;
const DIFF_MAX_BYTES = 16 * 1024;

type Side = { readonly kind: 'text'; readonly text: string; readonly cut: boolean } | { readonly kind: 'none' | 'other'; readonly note: string };

/**
 * What a person reads on stderr after an apply with conflicts (docs/overlay.md, "Conflicts"): for
 * each path, the person's version (on disk) against the agent's as a unified diff, bounded and
 * escaped for the terminal, then how to resolve it. stdout keeps the JSON result unchanged.
 */
export async function conflictReport(
  conflicts: readonly OverlayConflict[],
  disk: FileSystemProviderV1,
  agent: FileSystemProviderV1,
): Promise<string> {
  const parts: string[] = [];
  for (const conflict of conflicts) {
    const shown = escapeForDisplay(conflict.path);
    parts.push(`# conflict ${shown} (${conflict.reason}): --- yours on disk, +++ the agent's`);
    const path = parseCanonicalPath(conflict.path);
    if (path !== null && conflict.reason !== 'refused_path') parts.push(...(await sideBySide(path, conflict.path, disk, agent)));
    parts.push(`# ${resolution(conflict, shown)}`);
  }
  return `${parts.join('\n')}\n`;
}

async function sideBySide(
  path: NonNullable<ReturnType<typeof parseCanonicalPath>>,
  name: string,
  disk: FileSystemProviderV1,
  agent: FileSystemProviderV1,
): Promise<string[]> {
  const [yours, theirs] = [await sideOf(disk, path), await sideOf(agent, path)];
  if (yours.kind !== 'text' || theirs.kind !== 'text') {
    const describe = (side: Side) => (side.kind === 'text' ? `a text file of ${Buffer.byteLength(side.text)} bytes or more` : side.note);
    return [`# yours: ${describe(yours)}; the agent's: ${describe(theirs)}`];
  }
  const lines = unifiedDiffLines(name, yours.text, theirs.text).map((line) => escapeForDisplay(line, { multiline: true }));
  const bounded = boundDiff(lines, DIFF_MAX_BYTES);
  const out = bounded.diff === '' ? [] : bounded.diff.replace(/\n$/u, '').split('\n');
  if (bounded.truncated || yours.cut || theirs.cut) out.push(`# (cut: see the whole with libos diff ${escapeForDisplay(name)} and your file)`);
  return out;
}

async function sideOf(provider: FileSystemProviderV1, path: NonNullable<ReturnType<typeof parseCanonicalPath>>): Promise<Side> {
  try {
    const read = await provider.readFile(path, { maxBytes: SIDE_MAX_BYTES });
    const bytes = Buffer.from(read.bytes);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (bytes.includes(0) || !Buffer.from(text, 'utf8').equals(bytes))
      return { kind: 'other', note: `a binary file (${bytes.length}${read.truncated ? '+' : ''} bytes)` };
    return { kind: 'text', text, cut: read.truncated };
  } catch (error) {
    if (LibosError.is(error, 'not_found')) return { kind: 'none', note: 'no file' };
    if (LibosError.is(error, 'not_a_file')) return { kind: 'other', note: 'a directory or other non-file' };
    return { kind: 'other', note: `unreadable (${LibosError.is(error) ? error.code : 'error'})` };
  }
}

function resolution(conflict: OverlayConflict, shown: string): string {
  switch (conflict.reason) {
    case 'changed_since_shown':
      return `the agent changed it after you were shown it: look again (libos diff ${shown}), then apply the version you saw`;
    case 'refused_path':
      return `the workspace's rules refuse this path: drop the change with libos discard ${shown}`;
    case 'rename_partner':
      return `${shown} is half of a rename whose other half could not land (see its own conflict), so neither was written: resolve that one, then apply again`;
    case 'overlapping_edit':
      return `hunks ${(conflict.hunks ?? []).join(', ')} of the agent's overlap your edits and stay in the overlay; keep yours: libos discard ${shown} (or --hunks N); take the agent's: edit ${shown} as the diff shows, then libos discard ${shown}`;
    default:
      return `keep yours: libos discard ${shown}; take the agent's (or merge): edit ${shown} as the diff shows, then libos discard ${shown}`;
  }
}
