import { LibosError, type Bounds } from '@libos/core';
import type { RegisteredTool } from './call-pipeline.js';
import type { ToolDefinition } from './tool-definition.js';
import { summarizeTool, type ToolSummary } from './tool-summary.js';

// What MCP, the OpenAI and Anthropic APIs and the agent frameworks all accept as a tool name.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ANNOTATIONS = ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const;

/**
 * Checks a runtime's tool list once, at start, so a malformed user tool fails `createRuntime` with a
 * message naming it instead of failing every call; builds each input schema for the bounds.
 */
export function registerTools(
  definitions: readonly ToolDefinition[],
  bounds: Bounds,
  builtins: ReadonlySet<ToolDefinition>,
): { registered: Map<string, RegisteredTool>; tools: readonly ToolSummary[] } {
  if (!Array.isArray(definitions)) throw invalid('The tools option must be an array of tools made with defineTool.');
  const registered = new Map<string, RegisteredTool>();
  const tools: ToolSummary[] = [];
  definitions.forEach((definition: unknown, index) => {
    const tool = checkDefinition(definition, index);
    if (registered.has(tool.name)) throw invalid(`Two tools are named "${tool.name}"; tool names must be unique.`, tool.name);
    const inputSchema = buildInputSchema(tool, bounds);
    const summary = summarizeTool(tool, inputSchema);
    // A tool of the caller's is published in full now, so that createRuntime names one whose schemas
    // cannot be; the built-in tools' schemas (published whole by their tests) wait for a client's
    // first `tools/list`.
    if (!builtins.has(tool)) checkPublishable(tool.name, summary);
    registered.set(tool.name, { definition: tool, inputSchema, checkOutput: !builtins.has(tool) });
    tools.push(summary);
  });
  return { registered, tools };
}

function checkPublishable(name: string, summary: ToolSummary): void {
  let type: unknown;
  try {
    type = summary.inputSchema.type;
    void summary.outputSchema;
  } catch (error) {
    throw invalid(`The schemas of the tool "${name}" cannot be written as JSON Schema: ${reason(error)}.`, name);
  }
  if (type !== 'object') throw invalid(`The input schema of the tool "${name}" must be an object schema (z.strictObject).`, name);
}

function checkDefinition(value: unknown, index: number): ToolDefinition {
  const where = `The tool at index ${index}`;
  if (typeof value !== 'object' || value === null) throw invalid(`${where} is not a tool made with defineTool.`);
  const tool = value as Partial<Record<keyof ToolDefinition, unknown>>;
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    throw invalid(`${where} needs a name of 1 to 64 ASCII letters, digits, "_" or "-".`);
  }
  const named = `The tool "${tool.name}"`;
  if (typeof tool.title !== 'string' || typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw invalid(`${named} needs a title and a description (the description is what a model reads).`, tool.name);
  }
  if (typeof tool.inputSchema !== 'function' || typeof tool.execute !== 'function') {
    throw invalid(`${named} needs inputSchema(bounds) and execute(input, context) functions.`, tool.name);
  }
  const output = tool.outputSchema as { safeParse?: unknown } | undefined;
  if (typeof output?.safeParse !== 'function') throw invalid(`${named} needs a zod outputSchema.`, tool.name);
  const annotations = tool.annotations as Record<string, unknown> | undefined;
  if (annotations === undefined || ANNOTATIONS.some((key) => typeof annotations[key] !== 'boolean')) {
    throw invalid(`${named} needs annotations with readOnlyHint, destructiveHint and idempotentHint booleans.`, tool.name);
  }
  return value as ToolDefinition;
}

function buildInputSchema(tool: ToolDefinition, bounds: Bounds): RegisteredTool['inputSchema'] {
  let schema: unknown;
  try {
    schema = tool.inputSchema(bounds);
  } catch (error) {
    throw invalid(`The input schema of the tool "${tool.name}" failed to build: ${reason(error)}.`, tool.name);
  }
  if (typeof (schema as { safeParse?: unknown } | null)?.safeParse !== 'function') {
    throw invalid(`inputSchema(bounds) of the tool "${tool.name}" must return a zod schema.`, tool.name);
  }
  return schema as RegisteredTool['inputSchema'];
}

function invalid(message: string, tool?: string): LibosError {
  return new LibosError('invalid_arguments', message, tool === undefined ? {} : { details: { tool } });
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '').slice(0, 300);
}
