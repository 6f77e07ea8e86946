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
}

/** The SDK's modern entry over libOS's tools, shared by the HTTP and stdio transports. */
export interface ModernEndpoint {
  answer(message: ModernMessage): Promise<Response>;
  close(): Promise<void>;
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
    answer({ request, body, principal, resolveCall }) {
      exchanges.set(request, {
        body,
        signal: request.signal,
        resolveCall: (caller) => resolveCall({ request, body, caller, principal }),
      });
      return handler.fetch(request, { parsedBody: body });
    },
    close: () => handler.close(),
  };
}
