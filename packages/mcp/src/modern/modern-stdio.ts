import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json-rpc.js';
import type { McpProcess, McpRuntime } from '../mcp-runtime.js';
import type { PreemptAnswer } from '../tool-call-hooks.js';
import type { ResolveModernCall } from './modern-call.js';
import { createModernEndpoint, type ModernEndpointOptions } from './modern-endpoint.js';

/** The principal of a stdio server: the one user who started it. */
const STDIO_PRINCIPAL = 'single-user';

/**
 * The 2026-07-28 requests of a stdio connection, answered by the same SDK entry as over HTTP. The
 * SDK's modern entry is per request, so each message is handed to it as the HTTP request it would
 * be (its routing headers taken from the message itself, so they always agree); the channel keeps
 * the line's bounds, ids and back-pressure. Every call runs in the connection's process, whose
 * handle is the empty one (stdio has one agent), so approvals bind to it.
 */
export function createModernStdio(runtime: McpRuntime, process: McpProcess, options: ModernEndpointOptions) {
  const endpoint = createModernEndpoint(runtime, options);
  const resolveCall: ResolveModernCall = async () => ({ principal: STDIO_PRINCIPAL, handle: '', process, release() {} });
  return {
    /**
     * Answers a 2026-07-28 request: one whose `_meta` claims a protocol version (the SDK's own
     * routing rule; a malformed envelope behind the claim is the modern entry's -32602). Undefined
     * for a 2025-era request, which the session's SDK server answers.
     */
    answer(method: string, params: unknown, signal: AbortSignal): Promise<PreemptAnswer> | undefined {
      const meta = isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined;
      if (meta === undefined || !Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY)) return undefined;
      return answerModern(method, params, signal);
    },
    close: () => endpoint.close(),
  };

  async function answerModern(method: string, params: unknown, signal: AbortSignal): Promise<PreemptAnswer> {
    const body = { jsonrpc: '2.0', id: 0, method, params };
    // A cancelled call is still answered (docs/mcp.md): the cancel reaches the call, not the request.
    const request = new Request('http://stdio/mcp', { method: 'POST', headers: headersOf(method, params) });
    const response = await endpoint.answer({ request, body, principal: STDIO_PRINCIPAL, resolveCall, signal });
    const answer: unknown = await response.json();
    if (isPlainObject(answer) && isPlainObject(answer.error)) return { error: answer.error as { code: number; message: string } };
    if (isPlainObject(answer) && isPlainObject(answer.result)) return { result: answer.result };
    throw new Error(`the SDK answered a 2026-07-28 ${method} with HTTP ${response.status} and no JSON-RPC answer`);
  }
}

/** The Streamable HTTP headers a 2026-07-28 client would send with this message. */
function headersOf(method: string, params: unknown): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-method': method };
  const fields = isPlainObject(params) ? params : {};
  const meta = isPlainObject(fields._meta) ? fields._meta : {};
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (typeof version === 'string') headers['mcp-protocol-version'] = version;
  const name = method === 'resources/read' ? fields.uri : fields.name;
  if (typeof name === 'string' && /^[\x20-\x7e]*$/u.test(name)) headers['mcp-name'] = name;
  return headers;
}
