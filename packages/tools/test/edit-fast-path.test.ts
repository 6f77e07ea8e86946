import { createHash } from 'node:crypto';
import { LibosError, type WorkspacePath } from '@libos/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, type TextEdit } from '../src/edits/apply-edits.js';
import { encodeLikeOriginal } from '../src/edits/encode-like-original.js';
import { prepareEdit } from '../src/edits/prepare-edit.js';
import { unifiedDiffLines } from '../src/edits/unified-diff.js';
import { resolveEncoding } from '../src/encodings/index.js';
import type { ToolContext } from '../src/tool-definition.js';

const path = 'f.txt' as WorkspacePath;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// A context whose provider holds one file: all prepareEdit needs.
function contextFor(bytes: Uint8Array, maxBytes: number): ToolContext {
  return {
    bounds: { edit_max_bytes: maxBytes },
    signal: undefined,
    provider: { readFile: async () => ({ bytes, truncated: false }) },
  } as unknown as ToolContext;
}

// What edit_text_file computed before the byte path and the diff window: decode the whole file,
// edit the text, encode it, diff every line, hash both sides in full.
function reference(bytes: Uint8Array, encoding: string, edits: readonly TextEdit[], expected: string | undefined, maxBytes: number) {
  const codec = resolveEncoding(encoding);
  const readSha256 = sha256(bytes);
  if (expected !== undefined && expected !== readSha256) {
    return { code: 'content_conflict', details: { path, expected_sha256: expected, actual_sha256: readSha256 } };
  }
  try {
    const original = codec.decode(bytes, { truncated: false });
    const { text, replacements } = applyEdits(original, edits, maxBytes);
    const edited = encodeLikeOriginal(codec, bytes, text);
    if (edited.length > maxBytes) return { code: 'too_large', details: { path, max_bytes: maxBytes } };
    return { readSha256, bytes: [...edited], sha256: sha256(edited), replacements, diffLines: unifiedDiffLines(path, original, text) };
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return { code: error.code, details: error.details };
  }
}

async function prepared(bytes: Uint8Array, encoding: string, edits: readonly TextEdit[], expected: string | undefined, maxBytes: number) {
  try {
    const edit = await prepareEdit(contextFor(bytes, maxBytes), path, resolveEncoding(encoding), edits, expected);
    return { ...edit, bytes: [...edit.bytes] };
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return { code: error.code, details: error.details };
  }
}

const piece = fc.constantFrom('a', 'b', 'ab', '\n', '\r\n', 'é', '😀', '\ufeff', 'line\n', 'x\n');
const text = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));
const loneSurrogate = fc.constantFrom('\ud83d', '\ude00');

describe('edit_text_file computes the same edit on every path', () => {
  it('the UTF-8 byte path and the diff window give what decoding, editing and diffing the whole text gives', async () => {
    const edit = (content: string) =>
      fc.record({
        old_text: fc.oneof(
          // Mostly text that occurs (often once), so edits land; sometimes anything, so they miss or repeat.
          {
            arbitrary: fc
              .tuple(fc.nat(), fc.integer({ min: 1, max: 12 }))
              .map(([at, length]) => content.slice(at % Math.max(1, content.length)).slice(0, length) || 'a'),
            weight: 8,
          },
          { arbitrary: piece, weight: 2 },
          { arbitrary: loneSurrogate, weight: 1 },
        ),
        new_text: fc.oneof({ arbitrary: text, weight: 4 }, { arbitrary: piece, weight: 4 }, { arbitrary: loneSurrogate, weight: 1 }),
        replace_all: fc.boolean(),
      });
    const scenario = text.chain((content) =>
      fc.record({
        content: fc.constant(content),
        bom: fc.boolean(),
        encoding: fc.constantFrom('utf-8', 'utf-8-sig', 'utf-16-le'),
        edits: fc.array(edit(content), { minLength: 1, maxLength: 3 }),
        stale: fc.constantFrom(false, false, false, true),
        maxBytes: fc.constantFrom(40, 200, 100_000),
      }),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async ({ content, bom, encoding, edits, stale, maxBytes }) => {
        const body = encoding === 'utf-16-le' ? Buffer.from(content, 'utf16le') : Buffer.from(content, 'utf8');
        const bytes = bom && encoding !== 'utf-16-le' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
        if (bytes.length > maxBytes) return;
        const expected = stale ? sha256(Buffer.from('other')) : undefined;
        expect(await prepared(bytes, encoding, edits, expected, maxBytes)).toEqual(reference(bytes, encoding, edits, expected, maxBytes));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the text path for bytes that are not UTF-8, so they still fail to decode', async () => {
    const bytes = Buffer.from([0x61, 0xff, 0x62]);
    expect(await prepared(bytes, 'utf-8', [{ old_text: 'a', new_text: 'c', replace_all: false }], undefined, 100)).toMatchObject({
      code: 'decode_failed',
      details: { byte_offset: 1 },
    });
  });

  it('diffs a one-line edit of a large file as the full diff does, with the right line numbers', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index} é\n`);
    const bytes = Buffer.from(lines.join(''), 'utf8');
    const edits = [
      { old_text: 'line 2500 ', new_text: 'LINE 2500\n', replace_all: false },
      { old_text: 'line 2 é', new_text: 'two', replace_all: false },
    ];
    const edit = await prepared(bytes, 'utf-8', edits, undefined, 1 << 20);
    expect(edit).toEqual(reference(bytes, 'utf-8', edits, undefined, 1 << 20));
    expect(edit).toMatchObject({ diffLines: expect.arrayContaining(['@@ -1,6 +1,6 @@', '@@ -2498,7 +2498,8 @@']) });
  });
});
