import { Buffer, isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { LibosError, type WorkspacePath } from '@libos/core';
import type { TextCodec } from '../encodings/index.js';
import { sha256Hex } from '../sha256-hex.js';
import type { ToolContext } from '../tool-definition.js';
import { type TextEdit, applyEdits } from './apply-edits.js';
import { applyUtf8Edits } from './apply-utf8-edits.js';
import { diffWindow, newlinesOf } from './diff-window.js';
import { encodeLikeOriginal } from './encode-like-original.js';
import { unifiedDiffLines } from './unified-diff.js';

/** What an edit would land, computed from the bytes read. */
export interface PreparedEdit {
  /** The hash of the bytes the edit was made from, for the guarded replace. */
  readonly readSha256: string;
  readonly bytes: Uint8Array;
  readonly sha256: string;
  readonly replacements: number;
  readonly diffLines: readonly string[];
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Reads the file whole (within `bounds.edit_max_bytes`) and computes the bytes the edits make, the
 * hashes of both and the diff. Errors come in one order whatever path computes them: too_large of
 * the file, content_conflict, decode_failed, edit_mismatch, encode_failed, too_large of the result.
 */
export async function prepareEdit(
  context: ToolContext,
  path: WorkspacePath,
  codec: TextCodec,
  edits: readonly TextEdit[],
  expectedSha256: string | undefined,
): Promise<PreparedEdit> {
  const maxBytes = context.bounds.edit_max_bytes;
  const read = await context.provider.readFile(path, { maxBytes, signal: context.signal });
  if (read.truncated || read.bytes.length > maxBytes) {
    throw new LibosError('too_large', `The file "${path}" is larger than ${maxBytes} bytes (bounds.edit_max_bytes); use write_text_file.`, {
      details: { path, max_bytes: maxBytes },
    });
  }
  const original = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
  let prepared: PreparedEdit | undefined;
  try {
    prepared = editUtf8Bytes(path, codec, original, edits, maxBytes);
  } catch (error) {
    // An edit_mismatch: a stale expected hash is still the first thing to say, as on the text path.
    if (expectedSha256 !== undefined) requireExpected(path, expectedSha256, sha256Hex(original));
    throw error;
  }
  if (prepared !== undefined) {
    if (expectedSha256 !== undefined) requireExpected(path, expectedSha256, prepared.readSha256);
    return prepared;
  }
  return editText(path, codec, original, edits, expectedSha256, maxBytes);
}

/**
 * The fast path for valid UTF-8 (`utf-8`, `utf-8-sig`): edits land on the bytes, only the lines
 * around the change are decoded for the diff, and the two hashes share the unchanged prefix (a
 * SHA-256 state copied where the bytes start to differ). Undefined where the text path must decide.
 */
function editUtf8Bytes(
  path: WorkspacePath,
  codec: TextCodec,
  original: Buffer,
  edits: readonly TextEdit[],
  maxBytes: number,
): PreparedEdit | undefined {
  if ((codec.name !== 'utf-8' && codec.name !== 'utf-8-sig') || !isUtf8(original)) return undefined;
  // utf-8-sig decodes without one leading BOM and writes back the BOM the file had (encodeLikeOriginal).
  const bom = codec.name === 'utf-8-sig' && original.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  const body = original.subarray(bom);
  const applied = applyUtf8Edits(body, edits, maxBytes - bom);
  if (applied === undefined) return undefined;
  const bytes = bom === 0 ? applied.bytes : Buffer.concat([UTF8_BOM, applied.bytes]);
  const { start, cut, firstLine } = diffWindow(body.length, newlinesOf(body), applied);
  const before = body.toString('utf8', start, body.length - cut);
  const after = applied.bytes.toString('utf8', start, applied.bytes.length - cut);
  const shared = createHash('sha256').update(original.subarray(0, bom + applied.changedFrom));
  const next = shared.copy();
  return {
    readSha256: shared.update(original.subarray(bom + applied.changedFrom)).digest('hex'),
    bytes,
    sha256: next.update(bytes.subarray(bom + applied.changedFrom)).digest('hex'),
    replacements: applied.replacements,
    diffLines: unifiedDiffLines(path, before, after, firstLine),
  };
}

/** Any encoding: decode strictly, edit the text, encode like the original. */
function editText(
  path: WorkspacePath,
  codec: TextCodec,
  original: Buffer,
  edits: readonly TextEdit[],
  expectedSha256: string | undefined,
  maxBytes: number,
): PreparedEdit {
  const readSha256 = sha256Hex(original);
  if (expectedSha256 !== undefined) requireExpected(path, expectedSha256, readSha256);
  const decoded = codec.decode(original, { truncated: false });
  const applied = applyEdits(decoded, edits, maxBytes);
  const bytes = encodeLikeOriginal(codec, original, applied.text);
  if (bytes.length > maxBytes) {
    throw new LibosError('too_large', `The edited file would be larger than ${maxBytes} bytes (bounds.edit_max_bytes). Nothing was changed.`, {
      details: { path, max_bytes: maxBytes },
    });
  }
  const { start, cut, firstLine } = diffWindow(decoded.length, newlinesOf(decoded), applied);
  const before = decoded.slice(start, decoded.length - cut);
  const after = applied.text.slice(start, applied.text.length - cut);
  return {
    readSha256,
    bytes,
    sha256: sha256Hex(bytes),
    replacements: applied.replacements,
    diffLines: unifiedDiffLines(path, before, after, firstLine),
  };
}

function requireExpected(path: WorkspacePath, expectedSha256: string, actualSha256: string): void {
  if (expectedSha256 === actualSha256) return;
  throw new LibosError('content_conflict', `The content of "${path}" no longer matches the expected SHA-256.`, {
    details: { path, expected_sha256: expectedSha256, actual_sha256: actualSha256 },
  });
}
