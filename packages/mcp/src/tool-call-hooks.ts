import type { AuditCallerContext } from '@libos/core';
import type { ToolSummary } from '@libos/tools';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallInfo } from './call-table.js';
import { isPlainObject, JSON_RPC } from './json-rpc.js';
import type { McpProcess } from './mcp-runtime.js';
import { resultTooLarge } from './run-tool-call.js';
import { toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';

/** How a request answered before the SDK sees it is answered: a result, or a JSON-RPC error. */
export type PreemptAnswer = { readonly result: Record<string, unknown> } | { readonly error: { readonly code: number; readonly message: string } };

const NO_NAME: PreemptAnswer = {
  error: { code: JSON_RPC.invalidParams, message: 'Invalid params: tools/call needs "name", the name of a tool as a string.' },
};

/**
 * The `tools/call` requests the SDK would refuse with -32603 and a raw validation dump, answered
 * as docs/mcp.md says. Without a string `name` the answer is -32602; `arguments` that is not an
 * object is the tool's own `invalid_arguments` failure (the contract's rule). Either way the call
 * goes to the runtime, so that it has its audit record like every other: the pipeline refuses a
 * call without a tool name, or with such arguments, before anything runs. Every other request is
 * left to the SDK.
 */
export function preemptMalformedToolCall(
  process: McpProcess,
  callerOf: () => AuditCallerContext | undefined,
): (request: { readonly method: string; readonly params: unknown }) => Promise<PreemptAnswer> | undefined {
  return ({ method, params }) => {
    if (method !== 'tools/call') return undefined;
    const fields = isPlainObject(params) ? params : {};
    const { name, arguments: callArguments } = fields;
    const caller = callerOf();
    const options = caller === undefined ? {} : { caller };
    if (typeof name !== 'string') {
      // The pipeline checks the name's type itself (a non-string names no tool), so it records and refuses it.
      return process.call(name as string, callArguments, options).then(
        () => NO_NAME,
        () => NO_NAME,
      );
    }
    if (!Object.hasOwn(fields, 'arguments') || isPlainObject(callArguments)) return undefined;
    return process.call(name, callArguments, options).then(
      (outcome) => ({ result: toCallToolResult(outcome) }),
      () => ({ result: toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE }) }),
    );
  };
}

/**
 * A `tools/call` as the SDK gets it. The call is its `name` and `arguments`: `task` is dropped (this
 * server declares no tasks capability, so every call is an ordinary one; given it, the SDK would
 * run the tool and then answer an error for its result), and so is a `_meta` MCP would not accept, which the
 * server never reads. A call that runs is then recorded and answered like any other.
 */
export function toolCallMessage(body: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (!isPlainObject(body.params)) return body;
  const { task: _task, _meta: meta, ...params } = body.params;
  const keepMeta = meta !== undefined && isJSONRPCRequest({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { _meta: meta } });
  return { ...body, params: keepMeta ? { ...params, _meta: meta } : params };
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
    return toCallToolResult({ ok: false, error: resultTooLarge(replyBytes, maxReplyBytes, call.tool !== undefined && readOnly.has(call.tool)) });
  };
}
