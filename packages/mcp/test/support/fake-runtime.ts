import { describeTools, type ToolSummary } from '@libos/tools';
import type { McpProcess, McpRuntime } from '../../src/mcp-runtime.js';

/** A runtime of hand-made tools whose every session runs in `process` (the default bounds). */
export function fakeRuntime(tools: readonly ToolSummary[], process: McpProcess): McpRuntime {
  return { tools, bounds: describeTools().bounds, spawn: () => process };
}

/** A hand-made tool `slow`, answered by `gatedProcess` once the test opens its gate. */
export const slowTool: ToolSummary = {
  name: 'slow',
  title: 'Slow',
  description: 'Answers once the test lets it.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/**
 * A process whose calls wait until the test opens the gate, then answer `{done: true}`: `started`
 * settles once one call has begun, and `counts` says how many run at once (and the most that did).
 */
export function gatedProcess() {
  let open: () => void = () => {};
  let began: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const started = new Promise<void>((resolve) => (began = resolve));
  const counts = { running: 0, peak: 0 };
  const process: McpProcess = {
    call: async () => {
      counts.running += 1;
      counts.peak = Math.max(counts.peak, counts.running);
      began();
      await gate;
      counts.running -= 1;
      return { ok: true, result: { done: true } };
    },
  };
  return { process, started, counts, open: () => open() };
}
