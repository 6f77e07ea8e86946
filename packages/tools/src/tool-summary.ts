import { z } from 'zod';
import type { ToolAnnotations, ToolDefinition } from './tool-definition.js';

/** A tool as published to clients (MCP `tools/list`, other model APIs): JSON Schemas derived from zod. */
export interface ToolSummary {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Draft-07 JSON Schema of the arguments, with the runtime's bounds as limits. */
  readonly inputSchema: Record<string, unknown>;
  /** Draft-07 JSON Schema of a successful result; closed (`additionalProperties: false`). */
  readonly outputSchema: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
  /** True when the tool's results are media results (`mediaResultOf`), for a transport to hand over as media. */
  readonly media?: boolean;
}

/**
 * Publishes one tool with the input schema built for the runtime's bounds. The JSON Schemas are
 * written when first read (a client's `tools/list`), not when the runtime starts: writing the 18
 * built-in tools' schemas was the largest part of a `libos mcp` start after loading its code.
 */
export function summarizeTool(definition: ToolDefinition, inputSchema: z.ZodType): ToolSummary {
  let input: Record<string, unknown> | undefined;
  let output: Record<string, unknown> | undefined;
  return {
    name: definition.name,
    title: definition.title,
    description: definition.description,
    get inputSchema() {
      input ??= z.toJSONSchema(inputSchema, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
      return input;
    },
    get outputSchema() {
      output ??= z.toJSONSchema(definition.outputSchema, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
      return output;
    },
    annotations: { ...definition.annotations },
    media: definition.media === true,
  };
}
