import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { classifyMessage, JSON_RPC } from '../mcp/classify-message.js';
import type { ChannelLimits } from '../mcp/channel-limits.js';
import type { WorkspaceRuntime } from '../workspace/runtime-shape.js';
import { checkAccess, ownOriginsOf } from './check-access.js';
import { HttpSession, isRequest } from './http-session.js';
import { type HttpOptions, isLoopback } from './http-options.js';
import { BodyBudget } from './body-budget.js';
import { BodyBudgetSpent, BodyTooLarge, readBody } from './read-body.js';

export interface ServeHttpOptions extends HttpOptions {
  readonly runtime: WorkspaceRuntime;
  /** The largest request body accepted (the stdio line bound). */
  readonly maxRequestBytes: number;
  /** The request-body bytes held at once by all connections (default: 8 of the largest). */
  readonly maxBodyBytes?: number;
  readonly limits?: Partial<ChannelLimits>;
  readonly log: (line: string) => void;
}

/** A running `libos serve --http`. */
export interface HttpServer {
  readonly url: string;
  readonly sessionCount: number;
  /**
   * Stops taking sessions and requests, waits until every request already taken is answered and
   * written (answers to the server's own questions still pass), then ends every session. A client
   * that never reads its replies holds that wait for at most `drainMs`; then its session ends too.
   */
  close(): Promise<void>;
}

const ENDPOINT = '/mcp';
/** As many of the largest bodies as a session has calls in flight. */
const BODIES_HELD = 8;

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function rpcError(code: number, message: string, id: unknown = null) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/**
 * Serves the runtime's tools over MCP Streamable HTTP at `/mcp`: one libOS process per MCP session,
 * sessions ended by DELETE, idle expiry or shutdown, at most `maxSessions` of them (then 503).
 */
export async function serveHttp(options: ServeHttpOptions): Promise<HttpServer> {
  const { runtime, log } = options;
  const sessions = new Map<string, HttpSession>();
  let opening = 0;
  let draining = false;
  const origins = { value: new Set<string>() as ReadonlySet<string> };
  // Without it, many connections each sending a large body (slowly, or to a session whose client
  // does not take its replies) would make the server hold all of them.
  const bodies = new BodyBudget(options.maxBodyBytes ?? BODIES_HELD * options.maxRequestBytes);

  const openSession = () =>
    HttpSession.open({
      tools: runtime.tools,
      process: runtime.spawn(),
      log,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      onInitialized: (session) => sessions.set(session.id!, session),
      onClosed: (session) => {
        if (session.id !== undefined) sessions.delete(session.id);
      },
    });

  async function handlePost(request: IncomingMessage, response: ServerResponse, session: HttpSession | undefined): Promise<void> {
    // The body's bytes stay taken until its session has taken the message (or it is refused).
    const taken = { bytes: 0 };
    try {
      await handleBody(request, response, session, taken);
    } finally {
      bodies.give(taken.bytes);
    }
  }

  async function handleBody(
    request: IncomingMessage,
    response: ServerResponse,
    session: HttpSession | undefined,
    taken: { bytes: number },
  ): Promise<void> {
    let body: unknown;
    try {
      const text = (await readBody(request, options.maxRequestBytes, bodies, taken)).toString('utf8');
      body = JSON.parse(text);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return sendJson(
          response,
          413,
          rpcError(JSON_RPC.invalidRequest, `Request too large: a message may be at most ${options.maxRequestBytes} bytes.`),
          { connection: 'close' },
        );
      }
      if (error instanceof BodyBudgetSpent) {
        return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'Server busy: it holds as many request bodies as it may; retry later.'), {
          connection: 'close',
          'retry-after': '1',
        });
      }
      return sendJson(response, 400, rpcError(JSON_RPC.parseError, 'Parse error: the message is not valid JSON.'));
    }
    // MCP has no batches, over HTTP as over stdio: each request inside one is refused under its id.
    const incoming = classifyMessage(body);
    if (incoming.kind === 'refused') {
      const answers = incoming.answers;
      return sendJson(response, 400, Array.isArray(body) && answers.length > 1 ? answers : answers[0]);
    }
    if (draining && isRequest(body)) return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.', body.id));
    if (session !== undefined) return session.handle(request, response, body);
    if (draining) return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.'));
    if (!isInitialize(body)) {
      return sendJson(response, 400, rpcError(JSON_RPC.invalidRequest, 'Bad Request: no Mcp-Session-Id header; start with an initialize request.'));
    }
    if (sessions.size + opening >= options.maxSessions) {
      return sendJson(
        response,
        503,
        rpcError(
          JSON_RPC.internalError,
          `Too many sessions: this server keeps at most ${options.maxSessions}; end one (DELETE /mcp) or retry later.`,
        ),
        { 'retry-after': '5' },
      );
    }
    opening += 1;
    let fresh: HttpSession;
    try {
      fresh = await openSession();
    } finally {
      opening -= 1;
    }
    await fresh.handle(request, response, body);
    // An initialize the transport refused leaves a session no client can name.
    if (fresh.id === undefined || !sessions.has(fresh.id)) await fresh.close();
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== ENDPOINT) return sendJson(response, 404, rpcError(JSON_RPC.invalidRequest, `Not found: the MCP endpoint is ${ENDPOINT}.`));
    const refusal = checkAccess(request, options.token, origins.value, isLoopback(options.host));
    if (refusal !== undefined) {
      return sendJson(
        response,
        refusal.status,
        rpcError(JSON_RPC.invalidRequest, refusal.message),
        refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
      );
    }
    const header = request.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    const session = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && session === undefined)
      return sendJson(response, 404, rpcError(-32001, 'Session not found: it ended or never existed; initialize a new one.'));
    if (request.method === 'POST') return handlePost(request, response, session);
    if (request.method === 'GET' || request.method === 'DELETE') {
      if (session === undefined)
        return sendJson(response, 400, rpcError(JSON_RPC.invalidRequest, 'Bad Request: an Mcp-Session-Id header is required.'));
      if (draining && request.method === 'GET') return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.'));
      return session.handle(request, response);
    }
    sendJson(response, 405, rpcError(JSON_RPC.invalidRequest, 'Method not allowed.'), { allow: 'GET, POST, DELETE' });
  }

  const server: NodeHttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      sendJson(response, 500, rpcError(JSON_RPC.internalError, 'Internal error.'));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origins.value = ownOriginsOf(options.host, port);

  // Idle expiry: a session with nothing in flight and no request for the idle time ends.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        if (!session.busy && now - session.lastActivity >= options.sessionIdleMs) {
          log(`session ${session.id} idle for ${Math.round((now - session.lastActivity) / 1000)} s: ended`);
          void session.close();
        }
      }
    },
    Math.min(Math.max(Math.floor(options.sessionIdleMs / 4), 250), 30_000),
  );
  sweep.unref();

  const hostText = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostText}:${port}${ENDPOINT}`,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (draining) return;
      draining = true;
      clearInterval(sweep);
      // Still listening while draining: the answer to an approval a taken call waits on may come
      // on a new connection. New sessions and new requests get 503 meanwhile.
      const pending = new Set(sessions.values());
      const drained = Promise.all([...pending].map((session) => session.drained().then(() => pending.delete(session))));
      let deadline: NodeJS.Timeout | undefined;
      const timedOut = new Promise<true>((resolve) => (deadline = setTimeout(() => resolve(true), options.drainMs)));
      if ((await Promise.race([drained, timedOut])) === true) {
        log(`drain: ${pending.size} session(s) still had replies unwritten after ${options.drainMs / 1000} s; ending them`);
      }
      clearTimeout(deadline);
      await Promise.all([...sessions.values()].map((session) => session.close()));
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await stopped;
    },
  };
}
