import { parseConfig, type Bounds, type ConfigInput, type LibosConfig } from '@libos/core';
import { registerTools } from './register-tools.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolSummary } from './tool-summary.js';
import { BUILTIN_TOOLS } from './tools/index.js';

/**
 * The tools a runtime made with these options would publish (`runtime.tools`) and its bounds,
 * without a provider: for a server that must list its tools before it knows its workspace (an MCP
 * client names it by its roots after `initialize`). Throws like `createRuntime` for a malformed
 * config or tool list.
 */
export function describeTools(options: { readonly config?: LibosConfig | ConfigInput; readonly tools?: readonly ToolDefinition[] } = {}): {
  readonly tools: readonly ToolSummary[];
  readonly bounds: Bounds;
} {
  const config = parseConfig(options.config ?? {});
  const tools = options.tools ?? BUILTIN_TOOLS;
  return { tools: registerTools(tools, config.bounds, new Set<ToolDefinition>(BUILTIN_TOOLS)).tools, bounds: config.bounds };
}
