import type { WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { type TextCodec, resolveEncoding } from '../encodings/index.js';
import { byteSource } from '../lines/byte-source.js';
import { lineFormatOf } from '../lines/line-format.js';
import { readFromLine, readTail } from '../lines/read-lines.js';
import { atRealPath } from '../names/at-real-path.js';
import { sha256Hex } from '../sha256-hex.js';
import { type ToolContext, defineTool } from '../tool-definition.js';
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
    '`start_line` (from 1) returns whole lines from that line on, `tail_lines` the last lines of the file (not both); ' +
    'lines end at "\\n", `max_bytes` still bounds the content (a cut falls after the last whole line that fits), and the ' +
    'result adds `start_line` and `end_line`, the numbers of the first and last line returned. A tail reads only the end ' +
    'of the file in UTF-8, UTF-16 and single-byte encodings, so its line numbers are null unless that end was the whole ' +
    'file. With either option `content_sha256` hashes the bytes returned. A `start_line` past the end gives empty ' +
    'content; one that lies too deep into the file to reach is too_large. ' +
    'Fails with not_found, not_a_file, symlink_refused, hard_link_refused, unsupported_encoding or decode_failed.',
  inputSchema: (bounds) =>
    z
      .strictObject({
        path: pathField('The file to read.'),
        encoding: encodingField,
        max_bytes: boundedIntegerField(
          bounds.read_max_bytes_default,
          bounds.read_max_bytes_limit,
          `Maximum number of bytes to read (default ${bounds.read_max_bytes_default}, at most ${bounds.read_max_bytes_limit}).`,
        ),
        start_line: lineNumberField('Return whole lines from this line on (1 is the first line).'),
        tail_lines: lineNumberField('Return the last this many lines of the file.'),
      })
      .refine((input) => input.start_line === undefined || input.tail_lines === undefined, {
        message: 'start_line and tail_lines cannot be given together',
        path: ['tail_lines'],
      }),
  outputSchema: z.strictObject({
    path: identityField,
    content: z.string(),
    encoding: z.string().describe('Canonical name of the encoding that decoded the bytes.'),
    bytes_read: z.number().int().min(0),
    truncated: z.boolean(),
    content_sha256: z
      .string()
      .regex(sha256Pattern)
      .nullable()
      .describe('SHA-256 of the whole file, or null when truncated; with start_line or tail_lines, of the bytes returned.'),
    start_line: z.number().int().min(1).nullable().optional().describe('Number of the first line returned (null when unknown).'),
    end_line: z.number().int().min(0).nullable().optional().describe('Number of the last line returned (null when unknown).'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const codec = resolveEncoding(input.encoding);
    const path = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path, target: 'file' });
    permit.spend();
    if (input.start_line !== undefined || input.tail_lines !== undefined) {
      return (await atRealPath(context, path, (real) => readLines(context, real, codec, input))).value;
    }
    const located = await atRealPath(context, path, (real) => context.provider.readFile(real, { maxBytes: input.max_bytes, signal: context.signal }));
    const read = located.value;
    const truncated = read.truncated || read.bytes.length > input.max_bytes;
    const bytes = read.bytes.length > input.max_bytes ? read.bytes.subarray(0, input.max_bytes) : read.bytes;
    const content = codec.decode(bytes, { truncated });
    return {
      path: located.path,
      content,
      encoding: codec.name,
      bytes_read: bytes.length,
      truncated,
      content_sha256: truncated ? null : sha256Hex(bytes),
    };
  },
});

function lineNumberField(meaning: string) {
  return z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().describe(meaning);
}

async function readLines(
  context: ToolContext,
  path: WorkspacePath,
  codec: TextCodec,
  input: { readonly max_bytes: number; readonly start_line?: number | undefined; readonly tail_lines?: number | undefined },
) {
  const scanMaxBytes = context.bounds.read_scan_max_bytes;
  const source = byteSource(context.provider, path, scanMaxBytes + input.max_bytes, context.signal);
  // Only `utf-16` needs the file's first bytes (its byte order); every other format is known from the name.
  const head = codec.name === 'utf-16' ? (await source.read(0, 2)).bytes : new Uint8Array(0);
  const options = { format: lineFormatOf(codec, head), maxBytes: input.max_bytes, scanMaxBytes, path };
  const read =
    input.tail_lines !== undefined ? await readTail(source, input.tail_lines, options) : await readFromLine(source, input.start_line!, options);
  const decoder = read.offset === 0 ? options.format.startCodec : options.format.middleCodec;
  return {
    path,
    content: decoder.decode(read.bytes, { truncated: false }),
    encoding: codec.name,
    bytes_read: read.bytes.length,
    truncated: read.truncated,
    content_sha256: sha256Hex(read.bytes),
    start_line: read.startLine,
    end_line: read.endLine,
  };
}
