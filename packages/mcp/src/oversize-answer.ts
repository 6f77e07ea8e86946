import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { OversizeLine } from './oversize-line-filter.js';
import { JSON_RPC } from './json-rpc.js';
import { toCallToolResult } from './to-call-tool-result.js';

/**
 * The answer to a request too long to read: a tool call fails with `arguments_too_large` (the
 * check the contract puts before every other), any other request gets a JSON-RPC error. A line
 * whose id cannot be found (or a notification) gets no answer.
 */
export function oversizeAnswer(line: OversizeLine, argumentsMaxBytes: number, readLimitBytes: number): JSONRPCMessage | undefined {
  if (line.id === undefined) return undefined;
  if (line.method === 'tools/call') {
    const result = toCallToolResult({
      ok: false,
      error: {
        code: 'arguments_too_large',
        message: `The arguments are larger than ${argumentsMaxBytes} bytes of JSON.`,
        effect: 'none',
        details: { max_bytes: argumentsMaxBytes },
      },
    });
    return { jsonrpc: '2.0', id: line.id, result };
  }
  return {
    jsonrpc: '2.0',
    id: line.id,
    error: { code: JSON_RPC.invalidRequest, message: `The request is larger than the ${readLimitBytes} bytes this server reads.` },
  };
}
