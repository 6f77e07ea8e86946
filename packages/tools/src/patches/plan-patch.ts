import { LibosError, type WorkspacePath } from '@libos/core';
import { unifiedDiffLines } from '../edits/unified-diff.js';
import { encodeLikeOriginal } from '../edits/encode-like-original.js';
import { resolveEncoding } from '../encodings/index.js';
import { atRealPath, creationPath } from '../names/at-real-path.js';
import { sha256Hex } from '../sha256-hex.js';
import type { ToolContext } from '../tool-definition.js';
import { applyChunks, searchBudget } from './apply-chunks.js';
import type { PatchOperation } from './parse-patch.js';

/** A patch operation with its paths resolved to canonical identities. */
export type ResolvedOperation = PatchOperation & { readonly target: WorkspacePath; readonly destination?: WorkspacePath };

/** What one operation will do, computed from the bytes read; nothing written yet. */
export interface PlannedFile {
  readonly operation: ResolvedOperation;
  /** The SHA-256 of the bytes the operation was matched on (null for an added file). */
  readonly readSha256: string | null;
  /** The bytes the file will hold (null for a deleted file). */
  readonly bytes: Uint8Array | null;
  readonly sizeBytes: number;
}

/** Every operation planned, and the whole patch as one unified diff. */
export interface PatchPlan {
  readonly files: readonly PlannedFile[];
  readonly diffLines: readonly string[];
}

// Line comparisons one patch may spend locating its changes (tens of milliseconds of work).
const SEARCH_STEPS = 50_000_000;

/**
 * Reads every file the patch touches (each at most `bounds.edit_max_bytes`, strict UTF-8 with its
 * byte-order mark kept) and locates every change before anything is written: an added file or a
 * move's destination that exists is `already_exists`, a change that does not fit is
 * `edit_mismatch`, all with effect `none`.
 */
export async function planPatch(context: ToolContext, operations: readonly ResolvedOperation[]): Promise<PatchPlan> {
  const budget = searchBudget(SEARCH_STEPS);
  const sig = resolveEncoding('utf-8-sig');
  const files: PlannedFile[] = [];
  const diffLines: string[] = [];
  for (const asked of operations) {
    if (asked.kind === 'add') {
      // A name spelled otherwise than an existing one is that one's twin: refused, never created beside it.
      const operation = { ...asked, target: await creationPath(context, asked.target) };
      await requireMissing(context, operation.target);
      const bytes = resolveEncoding('utf-8').encode(operation.lines.map((line) => `${line}\n`).join(''));
      files.push({ operation, readSha256: null, bytes, sizeBytes: 0 });
      diffLines.push(...diffOf(operation.target, operation.target, '', decodeForDiff(bytes)));
      continue;
    }
    // The file as it exists, found under another Unicode spelling of its name when need be.
    const found = await atRealPath(context, asked.target, (path) => readWhole(context, path));
    const original = found.value;
    const destination = asked.destination === undefined ? undefined : await creationPath(context, asked.destination);
    const operation: ResolvedOperation = { ...asked, target: found.path, ...(destination === undefined ? {} : { destination }) };
    const text = sig.decode(original, { truncated: false });
    const readSha256 = sha256Hex(original);
    if (operation.kind === 'delete') {
      files.push({ operation, readSha256, bytes: null, sizeBytes: original.length });
      diffLines.push(...diffOf(operation.target, operation.target, text, ''));
      continue;
    }
    const next = operation.chunks.length === 0 ? text : applyChunks(operation.target, text, operation.chunks, budget);
    const bytes = encodeLikeOriginal(sig, original, next);
    if (bytes.length > context.bounds.edit_max_bytes) throw tooLarge(operation.target, context.bounds.edit_max_bytes, 'would become');
    if (operation.destination !== undefined) await requireMissing(context, operation.destination);
    files.push({ operation, readSha256, bytes, sizeBytes: original.length });
    diffLines.push(...diffOf(operation.target, operation.destination ?? operation.target, text, next));
  }
  refuseSameFileTwice(files);
  return { files, diffLines };
}

// Two spellings of one name in a patch reach one file: each file is changed by one operation only.
function refuseSameFileTwice(files: readonly PlannedFile[]): void {
  const seen = new Set<string>();
  for (const { operation } of files) {
    for (const path of [operation.target, operation.destination]) {
      if (path === undefined) continue;
      if (seen.has(path)) {
        throw new LibosError('invalid_arguments', `The patch names "${path}" twice (in two spellings); each file may appear once.`, {
          details: { path },
        });
      }
      seen.add(path);
    }
  }
}

async function readWhole(context: ToolContext, path: WorkspacePath): Promise<Uint8Array> {
  const maxBytes = context.bounds.edit_max_bytes;
  const read = await context.provider.readFile(path, { maxBytes, signal: context.signal });
  if (read.truncated || read.bytes.length > maxBytes) throw tooLarge(path, maxBytes, 'is');
  return read.bytes;
}

// Existence decided by exclusive creation or a no-replace rename when the patch lands; this only
// refuses early, so a patch that would meet an existing file writes nothing at all.
async function requireMissing(context: ToolContext, path: WorkspacePath): Promise<void> {
  let kind: string;
  try {
    kind = (await context.provider.stat(path, context.signal === undefined ? {} : { signal: context.signal })).kind;
  } catch (error) {
    // A missing parent: the write or the rename creates it.
    if (LibosError.is(error, 'not_found')) return;
    throw error;
  }
  if (kind === 'missing') return;
  throw new LibosError('already_exists', `"${path}" already exists; the patch creates it, so nothing was changed.`, { details: { path } });
}

/** The diff of one file; a move shows its old name on the `---` line and its new one on `+++`. */
function diffOf(from: WorkspacePath, to: WorkspacePath, before: string, after: string): string[] {
  const lines = unifiedDiffLines(to, before, after);
  if (from === to) return lines;
  const header = unifiedDiffLines(from, 'a\n', 'b\n')[0]!;
  if (lines.length === 0) return [header, unifiedDiffLines(to, 'a\n', 'b\n')[1]!];
  return [header, ...lines.slice(1)];
}

function decodeForDiff(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

function tooLarge(path: WorkspacePath, maxBytes: number, verb: string): LibosError {
  return new LibosError('too_large', `The file "${path}" ${verb} larger than ${maxBytes} bytes (bounds.edit_max_bytes); nothing was changed.`, {
    details: { path, max_bytes: maxBytes },
  });
}
