import type { AuditCallerContext, ToolFailure } from '@libos/core';
import type { ToolSummary } from '@libos/tools';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { McpProcess } from './mcp-runtime.js';
import { toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';

export interface RunToolCallOptions {
  readonly signal: AbortSignal;
  readonly caller: AuditCallerContext;
  /**
   * The largest reply written; a result whose reply would be larger is `result_too_large`. Left out
   * where the transport measures each reply exactly as it writes it (the message channel).
   */
  readonly maxReplyBytes?: number;
  readonly tools: readonly ToolSummary[];
  readonly log: (line: string) => void;
}

/** The JSON-RPC envelope and the result's own keys around the text block and structuredContent. */
const ENVELOPE_BYTES = 1024;

/**
 * One `tools/call`, start to end, for both protocol generations: the arguments exactly as the
 * client's JSON held them (absent is `{}`; anything else, `null` included, goes to the runtime,
 * which refuses what is not an object), the call's own signal, and one result. A 2026-07-28 result
 * is measured here before the SDK writes it (each answer is its own HTTP response or line).
 */
export async function runToolCall(process: McpProcess, name: string, callArguments: unknown, options: RunToolCallOptions): Promise<CallToolResult> {
  let result: CallToolResult;
  try {
    const outcome = await process.call(name, callArguments === undefined ? {} : callArguments, { signal: options.signal, caller: options.caller });
    result = toCallToolResult(outcome);
  } catch (error) {
    // A throw here is a bug; a JSON-RPC error would carry its raw text (maybe a host path) to the client.
    options.log(`unexpected failure in ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE });
  }
  if (options.maxReplyBytes === undefined) return result;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  // The text block is the result's JSON again, escaped once more inside the reply: measure both.
  const replyBytes = ENVELOPE_BYTES + Buffer.byteLength(JSON.stringify(text), 'utf8') + Buffer.byteLength(text, 'utf8');
  if (replyBytes <= options.maxReplyBytes) return result;
  const readOnly = options.tools.find((tool) => tool.name === name)?.annotations.readOnlyHint === true;
  return toCallToolResult({ ok: false, error: resultTooLarge(replyBytes, options.maxReplyBytes, readOnly) });
}

/** The failure that replaces a reply too large to send: a read-only tool changed nothing, any other may have. */
export function resultTooLarge(replyBytes: number, maxReplyBytes: number, readOnly: boolean): ToolFailure {
  return {
    code: 'result_too_large',
    message: `The reply would be ${replyBytes} bytes as sent over MCP (the result twice, once as escaped JSON text), more than the ${maxReplyBytes} bytes a client accepts; narrow the request (a smaller limit or max_bytes, or a deeper path).`,
    effect: readOnly ? 'none' : 'unknown',
    details: { reply_bytes: replyBytes, max_reply_bytes: maxReplyBytes },
  };
}
