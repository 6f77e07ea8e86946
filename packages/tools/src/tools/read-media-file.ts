import { Buffer } from 'node:buffer';
import { LibosError } from '@libos/core';
import { z } from 'zod';
import { mediaResultSchema } from '../media/media-result.js';
import { sniffMediaType } from '../media/sniff-media-type.js';
import { sha256Hex } from '../sha256-hex.js';
import { defineTool } from '../tool-definition.js';
import { boundedIntegerField, pathField } from './tool-fields.js';
import { atRealPath } from '../names/at-real-path.js';

const SUPPORTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'audio/wav', 'audio/mpeg', 'audio/ogg', 'application/pdf'];

/** `read_media_file`: one whole image, sound or PDF, typed by its magic bytes, for a model to look at. */
export const readMediaFile = defineTool({
  name: 'read_media_file',
  title: 'Read media file',
  description:
    'Reads a whole image, audio file or PDF so that you can see or hear it: PNG, JPEG, GIF, WebP, WAV, MP3, OGG or PDF, ' +
    "recognised from the file's first bytes (never from its name). Anything else fails with decode_failed, whose details " +
    'name the type that was found. The file must fit in `max_bytes` (default and limit: bounds.media_max_bytes, 5 MiB ' +
    'unless configured), else too_large: media is never cut. Returns the media itself, with its type, size and SHA-256. ' +
    'Fails with not_found, not_a_file, symlink_refused or hard_link_refused.',
  inputSchema: (bounds) =>
    z.strictObject({
      path: pathField('The file to read.'),
      max_bytes: boundedIntegerField(
        bounds.media_max_bytes,
        bounds.media_max_bytes,
        `The largest file to accept, in bytes (default and at most ${bounds.media_max_bytes}).`,
      ),
    }),
  outputSchema: mediaResultSchema,
  media: true,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const asked = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path: asked, target: 'file' });
    permit.spend();
    // One bounded read, then every decision on those bytes: no size looked up first that a writer
    // could change before the read, and nothing read twice.
    // The file as it exists, found under another Unicode spelling of its name when need be (docs/rules.md).
    const located = await atRealPath(context, asked, (real) =>
      context.provider.readFile(real, { maxBytes: input.max_bytes, signal: context.signal }),
    );
    const { path, value: read } = located;
    if (read.truncated || read.bytes.length > input.max_bytes) {
      throw new LibosError('too_large', `The file "${path}" is larger than ${input.max_bytes} bytes; media is never cut.`, {
        details: { path, max_bytes: input.max_bytes },
      });
    }
    const sniffed = sniffMediaType(read.bytes);
    if (!sniffed.supported) {
      throw new LibosError(
        'decode_failed',
        `The file "${path}" is not an image, audio file or PDF this tool reads (it looks like ${sniffed.detected}).`,
        {
          details: { path, detected_type: sniffed.detected, supported_types: SUPPORTED_TYPES },
        },
      );
    }
    const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
    return {
      path,
      media_type: sniffed.kind,
      mime_type: sniffed.mimeType,
      size_bytes: bytes.length,
      sha256: sha256Hex(bytes),
      data: bytes.toString('base64'),
    };
  },
});
