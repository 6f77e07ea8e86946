import { z } from 'zod';

/**
 * The result of a tool that hands a model one image, sound or document (`read_media_file`): its
 * bytes travel once, as base64 in `data`, and every transport gives them to the model in its own
 * media form (an MCP `image`/`audio` block or embedded resource, an AI SDK media part, ...).
 */
export const mediaResultSchema = z.strictObject({
  path: z.string().describe('Canonical path relative to the workspace root.'),
  media_type: z.enum(['image', 'audio', 'document']).describe('How the content is handed to a model: an image, a sound or a document.'),
  mime_type: z.string().describe('The type found from the file\'s first bytes, e.g. "image/png" or "application/pdf".'),
  size_bytes: z.number().int().min(0).describe('The size of the file, every byte of which is in `data`.'),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe("SHA-256 of the file's bytes."),
  data: z.string().describe('The whole file, base64.'),
});

/** A media result (see `mediaResultSchema`). */
export type MediaResult = z.infer<typeof mediaResultSchema>;

/** The fields of a media result other than its bytes: what a transport shows beside the media itself. */
export type MediaMetadata = Omit<MediaResult, 'data'>;

/** The result as a media result when it has exactly that shape, else undefined. */
export function mediaResultOf(result: unknown): MediaResult | undefined {
  // Asked of every result (its bound, then each transport's form): one without the two keys every
  // media result has is answered without zod, which would build a failure to say no.
  if (typeof result !== 'object' || result === null || !Object.hasOwn(result, 'media_type') || !Object.hasOwn(result, 'data')) return undefined;
  const parsed = mediaResultSchema.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

/** A media result without its bytes. */
export function mediaMetadataOf(result: MediaResult): MediaMetadata {
  const { data: _data, ...metadata } = result;
  return metadata;
}
