import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { whenSent } from '../http/call-streams.js';
import { loadNodeAdapter } from '../http/load-node-adapter.js';
import { rpcError, sendJson } from '../http/send-json.js';
import { isRequest, JSON_RPC } from '../json-rpc.js';
import type { McpRuntime } from '../mcp-runtime.js';
import { CallAdmission, DEFAULT_MODERN_CALL_LIMITS, type ModernCallLimits, type ReleaseCall } from './call-admission.js';
import type { ModernCall, ResolveModernCall } from './modern-call.js';
import { createModernEndpoint, type ModernEndpointOptions } from './modern-endpoint.js';

export interface ModernHttpOptions extends ModernEndpointOptions {
  /** Resolves each call's principal and process (default: a process of its own per request). */
  readonly resolveCall?: ResolveModernCall | undefined;
  /** What the requests of one connection, and of all, may hold in flight (`DEFAULT_MODERN_CALL_LIMITS`). */
  readonly callLimits?: Partial<ModernCallLimits> | undefined;
}

/** The 2026-07-28 leg of the HTTP endpoint: stateless, one SDK server per request. */
export interface ModernHttp {
  /** True when the SDK routes this request to the 2025-era leg (sessions, `initialize`). */
  isLegacy(request: IncomingMessage, body: unknown): Promise<boolean>;
  /** Answers one 2026-07-28 request whose body has been read (and bounded) already. */
  serve(request: IncomingMessage, response: ServerResponse, body: Readonly<Record<string, unknown>>, principal: string): Promise<void>;
  /** Requests taken and not yet answered. */
  readonly inFlight: number;
  /** Resolves once no request is in flight. */
  drained(): Promise<void>;
  close(): Promise<void>;
}

/** Without a fleet's state, a call runs in a process of its own, ended once it is answered. */
function spawnPerCall(runtime: McpRuntime): ResolveModernCall {
  return async ({ principal }) => {
    const process = runtime.spawn();
    // No handle outlives the request: every call without one runs in a process of its own (cwd `.`),
    // so an approval retried later is bound to that same empty handle.
    const call: ModernCall = { principal, handle: '', process, release: () => process.end?.() };
    return call;
  };
}

/**
 * Serves 2026-07-28 requests through the SDK's own `createMcpHandler` (strict: 2025-era traffic is
 * routed before it, with `isLegacyRequest`, to the sessions). The request's body, already read under
 * the endpoint's bounds, is handed over parsed, and the raw body reaches the request's server
 * through the web `Request` the SDK gives its factory.
 */
export function createModernHttp(runtime: McpRuntime, options: ModernHttpOptions): ModernHttp {
  const resolveCall = options.resolveCall ?? spawnPerCall(runtime);
  const endpoint = createModernEndpoint(runtime, options);
  const admission = new CallAdmission({ ...DEFAULT_MODERN_CALL_LIMITS, ...options.callLimits });
  let inFlight = 0;
  const waiters: (() => void)[] = [];

  return {
    async isLegacy(request, body) {
      const { toWebRequest } = await loadNodeAdapter();
      return isLegacyRequest(await toWebRequest(nodeRequest(request), body), body, { maxRequestBodySize: options.maxRequestBytes });
    },
    async serve(request, response, body, principal) {
      const admitted = admission.admit(request.socket);
      if (admitted === undefined) return refuseBusy(response, body);
      inFlight += 1;
      let release: ReleaseCall | undefined;
      try {
        release = await admitted;
        // Its connection closed while it waited: nobody is left to answer.
        if (release === undefined) return;
        const { toNodeHandler } = await loadNodeAdapter();
        const node = toNodeHandler(
          {
            fetch: (webRequest) => endpoint.answer({ request: webRequest, body, principal, resolveCall }),
          },
          { maxRequestBodySize: options.maxRequestBytes, onerror: (error) => options.log(error.message) },
        );
        await node(nodeRequest(request), response, body);
        // The slot is held until the reply is written whole: a client that reads none holds its own slots.
        await whenSent(response, request.socket);
      } finally {
        release?.();
        inFlight -= 1;
        if (inFlight === 0) for (const resolve of waiters.splice(0)) resolve();
      }
    },
    get inFlight() {
      return inFlight;
    },
    drained() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => endpoint.close(),
  };
}

/** A connection pipelining more requests than it may have waiting: refused, and its connection closed. */
function refuseBusy(response: ServerResponse, body: Readonly<Record<string, unknown>>): void {
  const id = isRequest(body) ? body.id : null;
  const message = 'Server busy: this connection has as many requests waiting as it may; retry on a new connection.';
  sendJson(response, 503, rpcError(JSON_RPC.internalError, message, id), { connection: 'close', 'retry-after': '1' });
}

/** Node's request as the SDK's adapter types it (a request that reached a server has its method). */
function nodeRequest(request: IncomingMessage): NodeIncomingMessageLike {
  return request as IncomingMessage & { method: string; url: string };
}
