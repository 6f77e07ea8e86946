import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { type PreparedEdit, prepareEdit } from '../edits/prepare-edit.js';
import { boundDiff } from '../edits/unified-diff.js';
import { resolveEncoding } from '../encodings/index.js';
import type { WorkspacePath } from '@libos/core';
import { type AtRealPath, atRealPath } from '../names/at-real-path.js';
import { type ToolContext, defineTool } from '../tool-definition.js';
import { encodingField, identityField, pathField, sha256Pattern } from './tool-fields.js';

const editSchema = z.strictObject({
  old_text: z.string().min(1).describe('The exact text to replace (not empty); it must occur exactly once unless replace_all is set.'),
  new_text: z.string().describe('The text to put in its place.'),
  replace_all: z.boolean().default(false).describe('Replace every non-overlapping occurrence, from the left (default false).'),
});

/** `edit_text_file`: exact text replacements landed as one atomic replace of the whole file. */
export const editTextFile = defineTool({
  name: 'edit_text_file',
  title: 'Edit text file',
  description:
    'Changes a text file by exact replacements: each of `edits` replaces `old_text` by `new_text`, in order, each on ' +
    'the text the previous one left. Without `replace_all` an `old_text` must occur exactly once; otherwise the call ' +
    'fails with edit_mismatch, naming the edit and how often it occurred, and nothing changes. All edits land together ' +
    'as one atomic replace of the file (mode kept), or none does; if another writer changed the file meanwhile the ' +
    'call fails with content_conflict. Line endings and a byte-order mark stay exactly as the text has them. ' +
    '`expected_content_sha256` (from read_text_file) makes the edit apply only to that exact content. Returns the ' +
    'number of replacements, the SHA-256 of the new bytes and a unified diff (cut to fit, diff_truncated says so). ' +
    'With `dry_run: true` nothing is written and no approval is asked: the call checks everything and returns the ' +
    'same result the real edit would, so the diff can be looked at first (it needs only the read right). ' +
    'Fails with not_found, not_a_file, symlink_refused, hard_link_refused, decode_failed, encode_failed or too_large.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The file to edit.'),
      edits: z.array(editSchema).min(1).max(100).describe('1 to 100 replacements, applied in order.'),
      encoding: encodingField,
      expected_content_sha256: z
        .string()
        .regex(sha256Pattern)
        .optional()
        .describe('The lowercase hex SHA-256 the current content must have (content_conflict otherwise).'),
      dry_run: z
        .boolean()
        .default(false)
        .describe('Check the edits and return what the call would give (replacements, hash, diff) without writing anything.'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    bytes_written: z.number().int().min(0),
    replacements: z.number().int().min(1).describe('Every replacement made, by all edits.'),
    content_sha256: z.string().regex(sha256Pattern).describe('SHA-256 of the bytes now in the file.'),
    diff: z.string().describe('Unified diff of the decoded text, 3 lines of context.'),
    diff_truncated: z.boolean().describe('True when the diff was cut to fit the result bound.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const codec = resolveEncoding(input.encoding);
    const path = context.resolvePath(input.path);
    let prepared: Promise<AtRealPath<PreparedEdit>> | undefined;
    // The file is found by any spelling of its name once, for the approver and the edit alike.
    const prepare = () =>
      (prepared ??= atRealPath(context, path, (real) => prepareEdit(context, real, codec, input.edits, input.expected_content_sha256)));
    if (input.dry_run) {
      // A dry run writes nothing, so it asks no approval: it reads the file and shows what the edit
      // would make of it, which is exactly what the read right allows.
      const reading = await context.authorize({ right: 'read', path, target: 'file' });
      reading.spend();
      const edit = await prepare();
      return editResult(context, edit.path, edit.value);
    }
    const permit = await context.authorize({
      right: 'write',
      path,
      target: 'file',
      // Only an approver ever makes the edit read before the permit: it is shown the diff and the
      // hash of the exact bytes, and a failed edit shows no content (its error reaches the caller
      // only after approval, so an ask grant cannot be used to probe the file).
      async prepareContent() {
        try {
          const { value: edit } = await prepare();
          return { bytes: edit.bytes, diffLines: edit.diffLines };
        } catch {
          return undefined;
        }
      },
    });
    permit.spend();
    const { path: real, value: edit } = await prepare();
    // The hash of the bytes the edit was made from: a concurrent writer in between is content_conflict,
    // decided by the provider atomically with the replace.
    await context.provider.writeFile(real, edit.bytes, { overwrite: true, expectedSha256: edit.readSha256, signal: context.signal });
    return editResult(context, real, edit);
  },
});

// The result of an edit, real or dry: the diff is cut to what is left of the result bound.
function editResult(context: ToolContext, path: WorkspacePath, edit: PreparedEdit) {
  const partial = {
    path,
    bytes_written: edit.bytes.length,
    replacements: edit.replacements,
    content_sha256: edit.sha256,
    diff: '',
    diff_truncated: false,
  };
  // What is left of the result bound after every other field (and some room for JSON punctuation).
  const room = context.bounds.result_max_bytes - Buffer.byteLength(JSON.stringify(partial), 'utf8') - 16;
  const { diff, truncated } = boundDiff(edit.diffLines, Math.max(0, room));
  return { ...partial, diff, diff_truncated: truncated };
}
