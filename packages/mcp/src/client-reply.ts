import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { Call } from './call-table.js';
import { oversizeReply, type OversizeResult } from './oversize-reply.js';
import { serializeMessage, serializeReply, type SerializedMessage } from './serialized-message.js';

/** A reply as the client gets it, and its JSON exactly as it will be written. */
export interface ClientReply {
  readonly message: JSONRPCMessage;
  readonly serialized: SerializedMessage;
}

/**
 * Turns the SDK's reply to `call` into the one the client gets: the client's own id in place of
 * the channel's, and a stand-in (never the reply itself) when it is over `maxReplyBytes`.
 */
export function clientReply(
  call: Call,
  message: JSONRPCMessage,
  maxReplyBytes: number,
  oversizeResult: OversizeResult | undefined,
  log: ((line: string) => void) | undefined,
): ClientReply {
  // `jsonrpc` and `id` first: the SDK client's zod parse of a reply measured twice as fast with
  // its members in the schema's order (the SDK itself writes `result` first).
  const { jsonrpc: _version, id: _internal, ...members } = message as unknown as Record<string, unknown>;
  const external = { jsonrpc: '2.0', id: call.externalId, ...members } as JSONRPCMessage;
  const serialized = serializeReply(external, call.known);
  if (serialized.bytes <= maxReplyBytes) return { message: external, serialized };
  log?.(`replaced a ${call.method} reply of ${serialized.bytes} bytes (more than ${maxReplyBytes})`);
  const replaced = oversizeReply(call, serialized.bytes, maxReplyBytes, oversizeResult);
  return { message: replaced, serialized: serializeMessage(replaced) };
}
