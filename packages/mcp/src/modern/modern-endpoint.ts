import { createMcpHandler } from '@modelcontextprotocol/server';
import { type ApprovalRoundsOptions, createApprovalRounds } from '../approvals/approval-rounds.js';
import type { McpRuntime } from '../mcp-runtime.js';
import type { ResolveModernCall } from './modern-call.js';
import { createModernServer, type ModernExchange, type ModernServerOptions } from './modern-server.js';

export interface ModernEndpointOptions extends Omit<ModernServerOptions, 'approvals'> {
  /** The largest request body (the same bound the transport reads messages under). */
  readonly maxRequestBytes: number;
  /** The requestState seal's key and used-state store (see `ApprovalRoundsOptions`). */
  readonly approvals?: ApprovalRoundsOptions | undefined;
}

/** One 2026-07-28 message to answer: its web request (real, or built for stdio) and its parsed body. */
export interface ModernMessage {
  readonly request: Request;
  readonly body: Readonly<Record<string, unknown>>;
  readonly principal: string;
  readonly resolveCall: ResolveModernCall;
  /**
   * What stops the call (default the request's own signal, aborted when an HTTP client goes). Over
   * stdio it is the channel's `notifications/cancelled`; the request's signal stays unaborted there,
   * so the SDK still writes the call's answer (an aborted request would leave it none to read).
   */
  readonly signal?: AbortSignal;
}

/** The SDK's modern entry over libOS's tools, shared by the HTTP and stdio transports. */
export interface ModernEndpoint {
  answer(message: ModernMessage): Promise<Response>;
  close(): Promise<void>;
}

/** The id the SDK is given for a request whose own id it would refuse (each exchange is one request). */
const STAND_IN_ID = 'libos-stand-in-id';

/** The ids the SDK's schema takes: a string or a safe integer. JSON-RPC takes any number, and null. */
function sdkTakesId(id: unknown): boolean {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/**
 * The SDK's answer to a request it was handed under a stand-in id, put back under the request's
 * own id (`1e308`, `-0.5`, `2 ** 53 + 2`, null): docs/mcp.md answers every request under its id.
 * Only such rare ids take this path, so the common one never parses its answer twice.
 */
async function answerUnder(id: unknown, answered: Promise<Response>): Promise<Response> {
  const response = await answered;
  const text = await response.text();
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  if (typeof message !== 'object' || message === null || (message as { id?: unknown }).id !== STAND_IN_ID) return new Response(text, response);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...message, id }), { status: response.status, statusText: response.statusText, headers });
}

/**
 * Serves 2026-07-28 messages through the SDK's own `createMcpHandler` (strict: 2025-era traffic is
 * routed elsewhere before it, to the sessions): `server/discover`, the envelope and header checks,
 * removed methods and cache hints are the SDK's. The raw body reaches the request's server through
 * the web `Request` the SDK gives its factory, so `tools/call` runs on the client's own JSON.
 */
export function createModernEndpoint(runtime: McpRuntime, options: ModernEndpointOptions): ModernEndpoint {
  const exchanges = new WeakMap<Request, ModernExchange>();
  const serverOptions: ModernServerOptions = { ...options, approvals: createApprovalRounds(options.approvals) };
  const handler = createMcpHandler(
    ({ requestInfo }) => {
      const exchange = requestInfo === undefined ? undefined : exchanges.get(requestInfo);
      if (exchange === undefined) throw new Error('A 2026-07-28 request reached the server without its exchange.');
      return createModernServer(runtime, () => exchange, serverOptions);
    },
    { legacy: 'reject', maxRequestBodySize: options.maxRequestBytes, onerror: (error) => options.log(error.message) },
  );
  return {
    answer({ request, body, principal, resolveCall, signal }) {
      exchanges.set(request, {
        body,
        signal: signal ?? request.signal,
        resolveCall: (caller) => resolveCall({ request, body, caller, principal }),
      });
      if (!Object.hasOwn(body, 'id') || sdkTakesId(body.id)) return handler.fetch(request, { parsedBody: body });
      return answerUnder(body.id, handler.fetch(request, { parsedBody: { ...body, id: STAND_IN_ID } }));
    },
    close: () => handler.close(),
  };
}
