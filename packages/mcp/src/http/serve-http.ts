import { createServer, type Server as NodeHttpServer } from 'node:http';
import { type ConnectionGuardOptions, guardConnections } from '@libos/http-guard';
import type { AddressInfo } from 'node:net';
import { JSON_RPC } from '../json-rpc.js';
import { isLoopback } from '../loopback.js';
import type { McpRuntime } from '../mcp-runtime.js';
import { ownOriginsOf } from './check-access.js';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpHandlerOptions } from './create-mcp-http-handler.js';
import { rpcError, sendJson } from './send-json.js';

/** What a peer may hold before it has shown the token (`guardConnections` of `@libos/http-guard`). */
export type ConnectionLimits = Omit<ConnectionGuardOptions, 'log'>;

export interface ServeHttpOptions extends Omit<McpHttpHandlerOptions, 'allowedOrigins' | 'loopbackOnly' | 'onAccess'>, ConnectionLimits {
  /** The address to listen on (default 127.0.0.1); a non-loopback one needs a `token`. */
  readonly host?: string;
  /** Default 0: a free port (see `url`). */
  readonly port?: number;
}

/** A running MCP Streamable HTTP server. */
export interface HttpServer {
  /** The endpoint, `http://HOST:PORT/mcp`. */
  readonly url: string;
  readonly sessionCount: number;
  /** Drains and ends every session (see `McpHttpHandler.close`), then stops listening. */
  close(): Promise<void>;
}

const ENDPOINT = '/mcp';
const DEFAULT_AUTHENTICATION_TIMEOUT_MS = 10_000;

/**
 * Serves `runtime`'s tools over MCP Streamable HTTP at `/mcp` on a `node:http` server of its own,
 * refusing a browser `Origin` other than its own and, on loopback, a `Host` that does not name
 * loopback (DNS rebinding).
 */
export async function serveHttp(runtime: McpRuntime, options: ServeHttpOptions = {}): Promise<HttpServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.token === undefined && !isLoopback(host)) {
    throw new Error(`refusing to serve ${host} (reachable from other hosts) without a token`);
  }
  let handler: McpHttpHandler | undefined;
  // Each request's headers within the time a new connection has to authenticate.
  const headersTimeout = options.authenticationTimeoutMs ?? DEFAULT_AUTHENTICATION_TIMEOUT_MS;
  // Node checks these deadlines every `connectionsCheckingInterval`: often enough to hold them.
  const timing = {
    headersTimeout,
    requestTimeout: headersTimeout + (options.bodyTimeoutMs ?? 30_000),
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  const server: NodeHttpServer = createServer(timing, (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== ENDPOINT) return sendJson(response, 404, rpcError(JSON_RPC.invalidRequest, `Not found: the MCP endpoint is ${ENDPOINT}.`));
    if (handler === undefined) return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is starting.'));
    void handler.handle(request, response);
  });
  const guard = guardConnections(server, {
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.reservedForAuthenticated === undefined ? {} : { reservedForAuthenticated: options.reservedForAuthenticated }),
    authenticationTimeoutMs: headersTimeout,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const mcp = createMcpHttpHandler(runtime, {
    ...options,
    allowedOrigins: ownOriginsOf(host, port),
    loopbackOnly: isLoopback(host),
    // A request that passed the token check makes its connection one the guard no longer times out.
    onAccess: (request) => guard.authenticated(request.socket),
  });
  handler = mcp;
  const hostText = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostText}:${port}${ENDPOINT}`,
    get sessionCount() {
      return mcp.sessionCount;
    },
    async close() {
      // Still listening while draining: the answer to an approval a taken call waits on may come
      // on a new connection.
      await mcp.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
    },
  };
}
