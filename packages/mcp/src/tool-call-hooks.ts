import type { ToolSummary } from '@libos/tools';
import type { McpProcess } from './mcp-runtime.js';
import type { CallInfo } from './call-table.js';
import { toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';

/**
 * A `tools/call` whose `arguments` is not an object (an array, a string, null) would be refused
 * by the SDK with -32603 and a raw validation dump. The contract wants the tool's own
 * `invalid_arguments` failure, so such a call goes straight to the runtime, which refuses it
 * before any probe. Every other request is left to the SDK.
 */
export function preemptMalformedToolCall(
  process: McpProcess,
): (request: { readonly method: string; readonly params: unknown }) => Promise<unknown> | undefined {
  return ({ method, params }) => {
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
    const { name, arguments: callArguments } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string' || !Object.hasOwn(params, 'arguments')) return undefined;
    if (typeof callArguments === 'object' && callArguments !== null && !Array.isArray(callArguments)) return undefined;
    return process.call(name, callArguments).then(toCallToolResult, () => toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE }));
  };
}

/**
 * The tool failure that replaces a reply too large to send. A read-only tool changed nothing; any
 * other tool's call has already run, so its effect is unknown and the caller must look again.
 */
export function oversizeToolResult(
  tools: readonly ToolSummary[],
): (call: CallInfo, replyBytes: number, maxReplyBytes: number) => Record<string, unknown> | undefined {
  const readOnly = new Set(tools.filter((tool) => tool.annotations.readOnlyHint).map((tool) => tool.name));
  return (call, replyBytes, maxReplyBytes) => {
    if (call.method !== 'tools/call') return undefined;
    return toCallToolResult({
      ok: false,
      error: {
        code: 'result_too_large',
        message: `The reply would be ${replyBytes} bytes as sent over MCP (the result twice, once as escaped JSON text), more than the ${maxReplyBytes} bytes a client accepts; narrow the request (a smaller limit or max_bytes, or a deeper path).`,
        effect: call.tool !== undefined && readOnly.has(call.tool) ? 'none' : 'unknown',
        details: { reply_bytes: replyBytes, max_reply_bytes: maxReplyBytes },
      },
    });
  };
}
