import { describeTools, type ToolSummary } from '@libos/tools';
import type { McpProcess, McpRuntime } from '../../src/mcp-runtime.js';

/** A runtime of hand-made tools whose every session runs in `process` (the default bounds). */
export function fakeRuntime(tools: readonly ToolSummary[], process: McpProcess): McpRuntime {
  return { tools, bounds: describeTools().bounds, spawn: () => process };
}
