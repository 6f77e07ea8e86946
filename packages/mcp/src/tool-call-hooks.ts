import type { AuditCallerContext } from '@libos/core';
import type { ToolSummary } from '@libos/tools';
import { type CallToolResult, isJSONRPCRequest } from '@modelcontextprotocol/server';
import type { CallInfo } from './call-table.js';
import type { SessionToolCall } from './create-mcp-server.js';
import { isPlainObject, JSON_RPC } from './json-rpc.js';
import type { McpProcess } from './mcp-runtime.js';
import { resultTooLarge } from './run-tool-call.js';
import type { KnownStructure } from './serialized-message.js';
import { knownStructure, toCallToolResult } from './to-call-tool-result.js';

/** How a request answered before the SDK sees it is answered: a result (with its JSON, when known), or a JSON-RPC error. */
export type PreemptAnswer =
  | { readonly result: Record<string, unknown>; readonly known?: KnownStructure | undefined }
  | { readonly error: { readonly code: number; readonly message: string }; readonly known?: undefined };

/** A request the channel offers to answer itself before the SDK sees it. */
export interface PreemptRequest {
  /** The id the request travels under inside the session (what a message related to it names). */
  readonly id: number;
  readonly method: string;
  readonly params: unknown;
  /** Aborted by the client's cancellation; the request is still answered. */
  readonly signal: AbortSignal;
}

const NO_NAME: PreemptAnswer = {
  error: { code: JSON_RPC.invalidParams, message: 'Invalid params: tools/call needs "name", the name of a tool as a string.' },
};

/**
 * The session's `tools/call`, owned by the message channel end to end: the arguments exactly as the
 * client's JSON held them (the SDK's parse would drop a `__proto__` key the runtime must refuse, and
 * answer `arguments` that is not an object with a raw validation dump), the channel's own signal
 * (a cancelled call stops where it waits and is still answered), and the result written once, its
 * JSON spliced in as measured. Without a string `name` the answer is -32602, after the runtime has
 * recorded and refused the call like every other. Every other request is left to the SDK.
 */
export function ownToolCalls(
  process: McpProcess,
  callTool: (call: SessionToolCall) => Promise<CallToolResult>,
  callerOf: () => AuditCallerContext | undefined,
): (request: PreemptRequest) => Promise<PreemptAnswer> | undefined {
  return ({ id, method, params, signal }) => {
    if (method !== 'tools/call') return undefined;
    const fields = isPlainObject(params) ? params : {};
    const { name, arguments: callArguments } = fields;
    if (typeof name !== 'string') {
      const caller = callerOf();
      // The pipeline checks the name's type itself (a non-string names no tool), so it records and refuses it.
      return process.call(name as string, callArguments, caller === undefined ? {} : { caller }).then(
        () => NO_NAME,
        () => NO_NAME,
      );
    }
    return callTool({ name, arguments: callArguments, signal, relatedId: id }).then((result) => ({ result, known: knownOf(result) }));
  };
}

/** A successful result's structuredContent with the JSON its text block carries, as the runtime measured it. */
function knownOf(result: CallToolResult): KnownStructure | undefined {
  return result.isError !== true && isPlainObject(result.structuredContent) ? knownStructure(result.structuredContent) : undefined;
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
