import type { ToolSummary } from '@libos/tools';
import type { Tool } from '@modelcontextprotocol/server';
import { mediaOutputSchema } from './to-media-content.js';

/** A tool as `tools/list` publishes it (both protocol generations publish the same list). */
export function toMcpTool(tool: ToolSummary): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    // A media tool's bytes travel in the content blocks, so the published schema leaves them out.
    outputSchema: (tool.media ? mediaOutputSchema(tool.outputSchema) : tool.outputSchema) as NonNullable<Tool['outputSchema']>,
    annotations: {
      title: tool.title,
      readOnlyHint: tool.annotations.readOnlyHint,
      destructiveHint: tool.annotations.destructiveHint,
      idempotentHint: tool.annotations.idempotentHint,
      openWorldHint: false,
    },
  };
}
