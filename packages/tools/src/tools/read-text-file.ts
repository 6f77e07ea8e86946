import { z } from 'zod';
import { resolveEncoding } from '../encodings/index.js';
import { sha256Hex } from '../sha256-hex.js';
import { defineTool } from '../tool-definition.js';
import { boundedIntegerField, encodingField, identityField, pathField, sha256Pattern } from './tool-fields.js';

/** `read_text_file`: decodes a prefix of a regular file strictly. */
export const readTextFile = defineTool({
  name: 'read_text_file',
  title: 'Read text file',
  description:
    'Reads a regular file as text, starting at byte 0 and reading at most `max_bytes` bytes. ' +
    '`truncated` is true when the file holds more; then a character cut at the end is left out of `content` ' +
    '(`bytes_read` still counts its bytes). Decoding is strict: bytes that are invalid in the encoding fail with ' +
    'decode_failed instead of being replaced. `content_sha256` is the SHA-256 of the whole file when it was read ' +
    'entirely (null when truncated); pass it as `expected_content_sha256` to write_text_file to update the file safely. ' +
    'Fails with not_found, not_a_file, symlink_refused, hard_link_refused, unsupported_encoding or decode_failed.',
  inputSchema: (bounds) =>
    z.strictObject({
      path: pathField('The file to read.'),
      encoding: encodingField,
      max_bytes: boundedIntegerField(
        bounds.read_max_bytes_default,
        bounds.read_max_bytes_limit,
        `Maximum number of bytes to read (default ${bounds.read_max_bytes_default}, at most ${bounds.read_max_bytes_limit}).`,
      ),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    content: z.string(),
    encoding: z.string().describe('Canonical name of the encoding that decoded the bytes.'),
    bytes_read: z.number().int().min(0),
    truncated: z.boolean(),
    content_sha256: z.string().regex(sha256Pattern).nullable().describe('SHA-256 of the whole file, or null when truncated.'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const codec = resolveEncoding(input.encoding);
    const path = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path, target: 'file' });
    permit.spend();
    const read = await context.provider.readFile(path, { maxBytes: input.max_bytes, signal: context.signal });
    const truncated = read.truncated || read.bytes.length > input.max_bytes;
    const bytes = read.bytes.length > input.max_bytes ? read.bytes.subarray(0, input.max_bytes) : read.bytes;
    const content = codec.decode(bytes, { truncated });
    return {
      path,
      content,
      encoding: codec.name,
      bytes_read: bytes.length,
      truncated,
      content_sha256: truncated ? null : sha256Hex(bytes),
    };
  },
});
