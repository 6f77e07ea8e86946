import { toMcpTool } from '@libos/mcp';
import type { ToolSummary } from '@libos/tools';

/** The shapes `libos tools --format` prints. */
export const TOOL_FORMATS = ['mcp', 'openai', 'openai-responses', 'anthropic', 'json-schema'] as const;

/** One of TOOL_FORMATS. */
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** The schema without its `$schema` key, which model APIs do not need (and some reject). */
function bareSchema(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** Every tool in the shape one ecosystem takes. */
export function formatTools(tools: readonly ToolSummary[], format: ToolFormat): unknown {
  switch (format) {
    case 'mcp':
      // The result of tools/list, as `libos mcp` answers it.
      return { tools: tools.map(toMcpTool) };
    case 'openai':
      // Chat Completions `tools` array.
      return tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: bareSchema(tool.inputSchema) },
      }));
    case 'openai-responses':
      // Responses API `tools` array: the function fields sit at the top level.
      return tools.map((tool) => ({
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: bareSchema(tool.inputSchema),
      }));
    case 'anthropic':
      // Messages API `tools` array.
      return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: bareSchema(tool.inputSchema) }));
    case 'json-schema':
      return Object.fromEntries(tools.map((tool) => [tool.name, { input: tool.inputSchema, output: tool.outputSchema }]));
  }
}
