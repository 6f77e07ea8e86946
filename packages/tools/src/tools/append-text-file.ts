import { LibosError, type WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { resolveEncoding } from '../encodings/index.js';
import { atRealPath, creationPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { encodingField, identityField, pathField } from './tool-fields.js';

/** `append_text_file`: adds encoded text at the end of a file, costing only the bytes added. */
export const appendTextFile = defineTool({
  name: 'append_text_file',
  title: 'Append to text file',
  description:
    'Adds text at the end of a regular file without reading or rewriting what it already holds, so appending a line to ' +
    'a large log costs only that line. The text is encoded first (encode_failed before anything is touched); no ' +
    'byte-order mark is ever added to a file that already holds bytes. `expected_size_bytes` makes the append apply ' +
    'only if the file still has exactly that size at the moment of the append (content_conflict otherwise, nothing ' +
    'written): pass the `size_bytes` of the previous append to retry safely without duplicating a line. A missing ' +
    'file fails with not_found unless `create: true`, which creates it (and missing parent directories) with the text ' +
    'as its whole content. The bytes are on stable storage when the call succeeds; a failure with effect "unknown" may ' +
    'have added part of them, so read the file before retrying. Returns the bytes appended and the size after. Fails ' +
    'with not_a_file for a directory, symlink_refused or hard_link_refused.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The file to append to.'),
      content: z.string().describe('The text to add at the end of the file.'),
      encoding: encodingField,
      expected_size_bytes: z
        .number()
        .int()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe('The size in bytes the file must have when the text is added (a missing file counts as 0 with create).'),
      create: z.boolean().default(false).describe('Create the file when it does not exist (default false: not_found).'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    bytes_appended: z.number().int().min(0).describe('Encoded bytes added, a byte-order mark of a new file included.'),
    size_bytes: z.number().int().min(0).describe('The size of the file after the append.'),
    created: z.boolean().describe('True when the call created the file.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const codec = resolveEncoding(input.encoding);
    const { body, mark } = splitByteOrderMark(codec.encode(input.content), codec.encode(''));
    const path = context.resolvePath(input.path);
    let asked = false;
    const permit = await context.authorize({
      right: 'write',
      path,
      target: 'file',
      // Called only when an approver is about to be asked: it sees every appended line, escaped, as
      // added lines of a diff (too long to show whole, and no one is asked), with the size and hash
      // of the exact bytes that will land.
      async prepareContent() {
        asked = true;
        const text = input.content.endsWith('\n') ? input.content.slice(0, -1) : input.content;
        return { bytes: body, diffLines: text.split('\n').map((line) => `+${line}`) };
      },
    });
    permit.spend();
    const append = context.provider.appendFile;
    if (append === undefined) {
      // No fallback through readFile and writeFile: it would cost the whole file, the very thing this tool avoids.
      throw new LibosError('provider_failure', `The provider "${context.provider.name}" cannot append to files.`, { effect: 'none' });
    }
    const options = {
      create: input.create,
      signal: context.signal,
      ...(input.expected_size_bytes === undefined ? {} : { expectedSizeBytes: input.expected_size_bytes }),
      // An approved call lands exactly the bytes the approver saw the hash of, so it adds no mark even to an empty file.
      ...(mark.length === 0 || asked ? {} : { emptyFilePrefix: mark }),
    };
    // An append that may create is a creation (no look-alike twin); one that may not finds the file by any spelling.
    const appendAt = (target: WorkspacePath) => append.call(context.provider, target, body, options);
    const { path: real, value: appended } = input.create
      ? await creationPath(context, path).then(async (target) => ({ path: target, value: await appendAt(target) }))
      : await atRealPath(context, path, appendAt);
    return { path: real, bytes_appended: appended.bytesAppended, size_bytes: appended.sizeBytes, created: appended.created };
  },
});

// The codec's byte-order mark is what it writes for empty text (utf-8-sig, utf-16); it goes to the
// provider apart, to land only on an empty or new file.
function splitByteOrderMark(encoded: Uint8Array, mark: Uint8Array): { body: Uint8Array; mark: Uint8Array } {
  const starts = mark.length > 0 && encoded.length >= mark.length && mark.every((byte, index) => encoded[index] === byte);
  return { body: starts ? encoded.subarray(mark.length) : encoded, mark };
}
