import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Call, CallInfo } from './call-table.js';
import { errorAnswer, JSON_RPC } from './json-rpc.js';

/** Builds the result that stands in for a reply over the bound (undefined: a JSON-RPC error). */
export type OversizeResult = (call: CallInfo, replyBytes: number, maxReplyBytes: number) => Record<string, unknown> | undefined;

/**
 * What is sent instead of a reply of `replyBytes`, more than `maxReplyBytes`: never the reply
 * itself, which a client would refuse, ending the whole session with it.
 */
export function oversizeReply(call: Call, replyBytes: number, maxReplyBytes: number, oversizeResult: OversizeResult | undefined): JSONRPCMessage {
  const result = oversizeResult?.(call, replyBytes, maxReplyBytes);
  if (result !== undefined) return { jsonrpc: '2.0', id: call.externalId, result } as JSONRPCMessage;
  return errorAnswer(
    call.externalId,
    JSON_RPC.internalError,
    `The reply would be ${replyBytes} bytes, more than the ${maxReplyBytes} this server sends.`,
  ) as JSONRPCMessage;
}
