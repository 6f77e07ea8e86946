import { z } from 'zod';
import { resolveEncoding } from '../encodings/index.js';
import { creationPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { encodingField, identityField, pathField, sha256Pattern } from './tool-fields.js';

/** `write_text_file`: encodes text and replaces a whole file atomically. */
export const writeTextFile = defineTool({
  name: 'write_text_file',
  title: 'Write text file',
  description:
    'Writes text to a file, replacing its whole content atomically (readers see the old or the new bytes, never a mix), ' +
    'and creates missing parent directories. The text is encoded first; a character the encoding cannot represent ' +
    'fails with encode_failed before anything is touched. With `overwrite: false` an existing file fails with ' +
    'already_exists. `expected_content_sha256` guards against lost updates: "missing" means the file must not exist yet, ' +
    'a 64-character lowercase hex SHA-256 (as returned by read_text_file) means the current content must still hash ' +
    'to it; otherwise content_conflict and nothing changes. Returns the bytes written (a byte-order mark counts) and ' +
    'whether the file was created. Fails with not_a_file for a directory, symlink_refused or hard_link_refused.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The file to write.'),
      content: z.string().describe('The complete new text of the file.'),
      encoding: encodingField,
      overwrite: z.boolean().default(true).describe('Replace an existing file (default true); false fails with already_exists.'),
      expected_content_sha256: z
        .union([z.literal('missing'), z.string().regex(sha256Pattern)])
        .optional()
        .describe('"missing" (the file must not exist) or the lowercase hex SHA-256 the current content must have.'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    bytes_written: z.number().int().min(0),
    created: z.boolean().describe('True when no file existed before.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const bytes = resolveEncoding(input.encoding).encode(input.content);
    const asked = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'write', path: asked, target: 'file', content: { bytes } });
    permit.spend();
    const path = await creationPath(context, asked);
    const { created } = await context.provider.writeFile(path, bytes, {
      overwrite: input.overwrite,
      signal: context.signal,
      ...(input.expected_content_sha256 === undefined ? {} : { expectedSha256: input.expected_content_sha256 }),
    });
    return { path, bytes_written: bytes.length, created };
  },
});
