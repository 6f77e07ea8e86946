import { LibosError, escapeForDisplay, utf8ByteLength, type WorkspacePath } from '@libos/core';
import { unifiedDiffLines } from '@libos/provider-kit';
import { changeVersion, sameChange, setVersion } from './change-version.js';
import type { EntryRow } from '../state/entry-rows.js';
import { readWhole, sha256Hex } from '../agent/lower-files.js';
import { readManifest } from '../state/manifest-store.js';
import type { OverlayContext } from '../overlay-context.js';
import type { DiffOptions, DiffResult } from '../overlay-types.js';
import { landingRows } from './select-rows.js';
import { mergePreview, numberHunks } from './diff-merge-preview.js';
import { pathBelow, readStatePath } from '../state/state-path.js';
import { renamePartners } from './rename-pairs.js';

const DEFAULT_MAX_BYTES = 1 << 20;
const strict = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What a side of a diff holds: bytes, or nothing. */
type Side = Uint8Array | null;

/**
 * A unified diff of the selected changes, one file after another in path order. Stops as soon as
 * `maxBytes` is reached and says so in a last line; a deleted directory shows each file it held.
 */
export async function diffChanges(context: OverlayContext, options: DiffOptions = {}): Promise<DiffResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1)
    throw new LibosError('invalid_arguments', 'max_bytes must be a positive integer.', { details: { max_bytes: maxBytes } });
  const out: string[] = [];
  let used = 0;
  let cut = false;
  const emit = (lines: readonly string[]): boolean => {
    for (const line of lines) {
      const cost = utf8ByteLength(line) + 1;
      if (used + cost > maxBytes) {
        cut = true;
        return false;
      }
      out.push(line);
      used += cost;
    }
    return true;
  };
  // What an apply of the same paths would land (changed directories above included), from one read.
  const heads = landingRows(context, options.paths);
  const versions: { path: string; version: string }[] = [];
  let moved = false;
  const partners = renamePartners(context.state.db, heads);
  for (const head of heads) {
    const path = readStatePath(head.path);
    if (path instanceof LibosError) {
      // A crafted state's row is named, never read from the lower: apply refuses it (`refused_path`).
      if (!emit([`# refused: ${escapeForDisplay(head.path)} is not a path the workspace may change; apply leaves it`])) break;
      continue;
    }
    const row = context.rows.get(path);
    // A row that moved after the selection was read is shown as it is now, but no set version is given.
    if (row === undefined || !sameChange(row, head)) moved = true;
    if (row === undefined || row.change === null) continue;
    // A rename is shown once, at its new name, from the file it was moved from (docs/overlay.md, "Renames").
    const partner = partners.get(row.path);
    const from = row.kind === 'file' && partner !== undefined ? readStatePath(partner) : undefined;
    const shown =
      from !== undefined && !(from instanceof LibosError)
        ? await emitRename(context, from, row, emit)
        : partner !== undefined && row.kind === 'whiteout'
          ? true
          : await emitRow(context, row, emit);
    if (!shown || cut) break;
    versions.push({ path: row.path, version: changeVersion(row, partners) });
  }
  let text = out.length === 0 ? '' : `${out.join('\n')}\n`;
  if (cut) text += `# diff cut at ${maxBytes} bytes: pass a larger max_bytes or fewer paths to see the rest\n`;
  return { text, truncated: cut, versions, set_version: cut || moved ? null : setVersion(heads, partners) };
}

async function emitRow(context: OverlayContext, row: EntryRow, emit: (lines: readonly string[]) => boolean): Promise<boolean> {
  const { path } = row;
  const stored: Side = row.kind === 'file' ? new Uint8Array(row.content ?? Buffer.alloc(0)) : null;
  const current: Side = (row.lower_bytes ?? 0) === 0 ? stored : null;
  if (row.base_kind === 'directory' && row.manifest_id !== null) {
    if (!emit([`# directory ${row.kind === 'whiteout' ? 'deleted' : 'replaced'}: ${escapeForDisplay(path)} (${row.base_files ?? 0} files within)`]))
      return false;
    for (const entry of readManifest(context, row.manifest_id)) {
      if (entry.kind !== 'file') continue;
      const inner = pathBelow(path, entry.path);
      const bytes = await lowerBytes(context, inner);
      if (!emit(fileDiff(inner, bytes, null, entry.sha256 !== null && bytes !== null && sha256Hex(bytes) !== entry.sha256))) return false;
    }
    if (row.kind === 'file') return emit(fileDiff(path, null, current, false));
    if (row.kind === 'directory') return emit([`# directory added: ${escapeForDisplay(path)}`]);
    return true;
  }
  if (row.kind === 'directory') return emit([`# directory added: ${escapeForDisplay(path)}`]);
  const base: Side = row.base_kind === 'file' ? await lowerBytes(context, path) : null;
  const drifted = row.base_kind === 'file' && base !== null && sha256Hex(base) !== row.base_sha256;
  const preview = drifted && base !== null && current !== null ? mergePreview(context, row, base, current) : undefined;
  if (preview !== undefined) return emit(preview);
  if (current === null && stored !== null) {
    // Appended to a base left on the lower: the agent's file is that base and what it appended.
    if (drifted || base === null) {
      const note = `# note: ${path} changed on disk under the agent's appended bytes (${stored.length} bytes, sha256 ${sha256Hex(stored)}); apply meets a conflict`;
      return emit([note]);
    }
    return emit(fileDiff(path, base, Buffer.concat([base, stored]), false));
  }
  return emit(fileDiff(path, base, current, drifted));
}

/** `diff --git` and `rename from`/`rename to` lines as git writes them, then the bytes' diff if they changed too. */
async function emitRename(
  context: OverlayContext,
  from: WorkspacePath,
  row: EntryRow,
  emit: (lines: readonly string[]) => boolean,
): Promise<boolean> {
  const [oldName, newName] = [escapeForDisplay(from), escapeForDisplay(row.path)];
  const header = [`diff --git a/${oldName} b/${newName}`, `rename from ${oldName}`, `rename to ${newName}`];
  const base = await lowerBytes(context, from);
  const stored = row.kind === 'file' && (row.lower_bytes ?? 0) === 0 ? new Uint8Array(row.content ?? Buffer.alloc(0)) : null;
  if (base !== null && stored !== null && sha256Hex(base) === sha256Hex(stored)) return emit(header);
  // The file moved is the deleted half's base: shown against the disk, with a note, if it changed there.
  const drifted = base === null || sha256Hex(base) !== context.rows.head(from)?.base_sha256;
  const lines = fileDiff(from, base, stored, drifted && base !== null);
  // The new side's header names the new path, quoted as the diff quotes any name.
  const at = lines.findIndex((line) => line.startsWith('+++ '));
  if (at !== -1) lines[at] = unifiedDiffLines(row.path, '', '\n')[1] as string;
  return emit([...header, ...lines]);
}

// The base bytes are what the lower holds now, when it still holds the base; a drifted file is
// diffed against the disk with a note, so the person sees what `apply` would meet.
async function lowerBytes(context: OverlayContext, path: WorkspacePath): Promise<Uint8Array | null> {
  try {
    return await readWhole(context.lower, path, null);
  } catch {
    return null;
  }
}

function fileDiff(rawPath: string, base: Side, current: Side, drifted: boolean): string[] {
  // A name in our own lines is written escaped: a line break in it could otherwise forge diff
  // lines (the --- and +++ headers quote such a name themselves, as git does).
  const path = escapeForDisplay(rawPath);
  const note = drifted ? [`# note: ${path} changed on disk since the agent's change was made; shown against the disk`] : [];
  const oldText = base === null ? '' : textOf(base);
  const newText = current === null ? '' : textOf(current);
  if (oldText === undefined || newText === undefined) {
    const describe = (side: Side) => (side === null ? 'absent' : `${side.length} bytes, sha256 ${sha256Hex(side)}`);
    return [
      ...note,
      `Binary files ${base === null ? '/dev/null' : `a/${path}`} and ${current === null ? '/dev/null' : `b/${path}`} differ (${describe(base)}; ${describe(current)})`,
    ];
  }
  const lines = numberHunks(unifiedDiffLines(rawPath, oldText, newText));
  if (lines.length === 0) return note;
  if (base === null) lines[0] = '--- /dev/null';
  if (current === null) lines[1] = '+++ /dev/null';
  return [...note, ...lines];
}
