import { mediaMetadataOf, type MediaResult } from '@libos/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * A media result as MCP carries it: the bytes once, in the block MCP has for them (an `image` or
 * `audio` block, a PDF as an embedded resource with `application/pdf`), then one text block with
 * the other fields' JSON, which are also the `structuredContent`. Sending the bytes a second time
 * inside `structuredContent` would double a reply of megabytes.
 */
export function toMediaCallToolResult(media: MediaResult): CallToolResult {
  const metadata = mediaMetadataOf(media);
  return { structuredContent: metadata, content: [mediaBlock(media), { type: 'text', text: JSON.stringify(metadata) }] };
}

function mediaBlock(media: MediaResult): CallToolResult['content'][number] {
  if (media.media_type === 'image') return { type: 'image', data: media.data, mimeType: media.mime_type };
  if (media.media_type === 'audio') return { type: 'audio', data: media.data, mimeType: media.mime_type };
  return { type: 'resource', resource: { uri: workspaceUri(media.path), mimeType: media.mime_type, blob: media.data } };
}

/** The resource's name: the canonical root-relative path under a scheme of its own, so no host path is implied. */
export function workspaceUri(path: string): string {
  return `libos-workspace:///${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The output schema MCP publishes for a media tool: the result's own, without `data`, which travels as media. */
export function mediaOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = { ...(schema.properties as Record<string, unknown>) };
  delete properties.data;
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => name !== 'data') : [];
  return { ...schema, properties, required };
}
