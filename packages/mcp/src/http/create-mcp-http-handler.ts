import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChannelLimits } from '../channel-limits.js';
import { DEFAULT_CHANNEL_LIMITS, maxMessageBytes } from '../channel-limits.js';
import { classifyMessage, isInitialize, isPlainObject, isRequest, JSON_RPC } from '../json-rpc.js';
import type { McpRuntime } from '../mcp-runtime.js';
import { BodyBudget } from './body-budget.js';
import { checkAccess } from './check-access.js';
import { HttpSession } from './http-session.js';
import { createModernHttp } from '../modern/modern-http.js';
import type { ResolveModernCall } from '../modern/modern-call.js';
import type { ModernCallLimits } from '../modern/call-admission.js';
import type { ApprovalRoundsOptions } from '../approvals/approval-rounds.js';
import { principalOf } from './principal.js';
import { processTableResolver, type StatelessProcesses } from '../modern/process-table-resolver.js';
import { BodyBudgetSpent, BodyTimedOut, BodyTooLarge, readBody } from './read-body.js';
import { rpcError, sendJson } from './send-json.js';

export interface McpHttpHandlerOptions {
  /** The bearer token every request must carry (`Authorization: Bearer <token>`); else 401. */
  readonly token?: string | undefined;
  /** The browser origins allowed to call (`http://host:port`, lower case); a request with any other `Origin` gets 403. Default none. */
  readonly allowedOrigins?: Iterable<string>;
  /** Refuse a `Host` header that does not name loopback (a DNS-rebound page), for a server bound to loopback. */
  readonly loopbackOnly?: boolean;
  /**
   * Told of each request that passed the access check (it carried the token, when one is set), so a
   * server can count its connection as authenticated (`guardConnections` of `@libos/http-guard`).
   */
  readonly onAccess?: (request: IncomingMessage) => void;
  /** A session with nothing in flight and no request for this long ends (default 900 s). */
  readonly sessionIdleMs?: number;
  /** The sessions kept at once; the next `initialize` gets 503 (default 256). */
  readonly maxSessions?: number;
  /** How long `close()` waits for replies still unwritten before ending their sessions (default 30 s). */
  readonly drainMs?: number;
  /** The request-body bytes held at once by all requests, counted as they arrive (default: 8 of the largest). */
  readonly maxBodyBytes?: number;
  /** How long one request's body may take to arrive whole once its headers have (default 30 s; then 408). */
  readonly bodyTimeoutMs?: number;
  readonly limits?: Partial<ChannelLimits>;
  /** What 2026-07-28 requests (no session) may hold in flight, per connection and in all (docs/mcp.md, "Back-pressure"). */
  readonly modernCallLimits?: Partial<ModernCallLimits>;
  /**
   * Resolves the principal's process for each 2026-07-28 call (default: a process of its own per
   * call, ended once it is answered). Under 2025-era sessions the session's process is used.
   */
  readonly resolveCall?: ResolveModernCall;
  /**
   * The runtime's processes kept as data (`runtime.openProcessTable()`): 2026-07-28 calls name their
   * process with a `process` argument and `tools/list` publishes it (docs/mcp.md). Used when no
   * `resolveCall` is given; 2025-era sessions never see it.
   */
  readonly processes?: StatelessProcesses;
  /** The 2026-07-28 approvals' requestState key and used-state store (default: a key of this process, in memory); a fleet gives every instance the same (docs/fleet.md). */
  readonly approvals?: ApprovalRoundsOptions;
  readonly log?: (line: string) => void;
  readonly name?: string;
  readonly version?: string;
}

/** The MCP Streamable HTTP endpoint as a request handler, to mount at a path of your own server. */
export interface McpHttpHandler {
  /** Answers one request (POST, GET or DELETE of the MCP endpoint). Never rejects. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  readonly sessionCount: number;
  /**
   * Stops taking sessions and requests, waits until every request already taken is answered and
   * written (answers to the server's own questions still pass), then ends every session. A client
   * that never reads its replies holds that wait for at most `drainMs`; then its session ends too.
   */
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 900_000;
const SESSION_NOT_FOUND = 'Session not found: it ended or never existed; initialize a new one.';
const DEFAULT_MAX_SESSIONS = 256;
const DEFAULT_DRAIN_MS = 30_000;
const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** As many of the largest bodies as a session has calls in flight. */
const BODIES_HELD = 8;

/**
 * Serves `runtime`'s tools over MCP Streamable HTTP: one libOS process per MCP session, sessions
 * ended by DELETE, idle expiry or `close()`, at most `maxSessions` of them (then 503), each with
 * the bounds of a stdio session (docs/mcp.md). Give the runtime `createElicitationApprover()` for
 * `ask` grants to reach each session's client.
 */
export function createMcpHttpHandler(runtime: McpRuntime, options: McpHttpHandlerOptions = {}): McpHttpHandler {
  const log = options.log ?? (() => {});
  const sessions = new Map<string, HttpSession>();
  const origins: ReadonlySet<string> = new Set([...(options.allowedOrigins ?? [])].map((origin) => origin.toLowerCase()));
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_IDLE_MS;
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  const maxRequestBytes = maxMessageBytes(runtime.bounds.arguments_max_bytes);
  let opening = 0;
  let draining = false;
  // Without it, many connections each sending a large body (slowly, or to a session whose client
  // does not take its replies) would make the server hold all of them.
  const bodies = new BodyBudget(options.maxBodyBytes ?? BODIES_HELD * maxRequestBytes);
  const modern = createModernHttp(runtime, {
    name: options.name,
    version: options.version,
    log,
    maxReplyBytes: { ...DEFAULT_CHANNEL_LIMITS, ...options.limits }.maxReplyBytes,
    maxRequestBytes,
    resolveCall: options.resolveCall ?? (options.processes === undefined ? undefined : processTableResolver(options.processes)),
    tools: options.processes?.tools,
    approvals: options.approvals,
    callLimits: options.modernCallLimits,
  });

  const openSession = () =>
    HttpSession.open({
      runtime,
      process: runtime.spawn(),
      log,
      limits: options.limits,
      name: options.name,
      version: options.version,
      onInitialized: (session) => sessions.set(session.id!, session),
      onClosed: (session) => {
        if (session.id !== undefined) sessions.delete(session.id);
      },
    });

  async function handlePost(
    request: IncomingMessage,
    response: ServerResponse,
    session: HttpSession | undefined,
    unknownSession: boolean,
  ): Promise<void> {
    // The body's bytes stay taken until its session has taken the message (or it is refused).
    const taken = { bytes: 0 };
    try {
      await handleBody(request, response, session, taken, unknownSession);
    } finally {
      bodies.give(taken.bytes);
    }
  }

  async function handleBody(
    request: IncomingMessage,
    response: ServerResponse,
    session: HttpSession | undefined,
    taken: { bytes: number },
    unknownSession: boolean,
  ): Promise<void> {
    let body: unknown;
    let bytes = 0;
    try {
      const read = await readBody(request, maxRequestBytes, bodies, taken, options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
      bytes = read.length;
      body = JSON.parse(read.toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        return sendJson(response, 413, rpcError(JSON_RPC.invalidRequest, `Request too large: a message may be at most ${maxRequestBytes} bytes.`), {
          connection: 'close',
        });
      }
      if (error instanceof BodyTimedOut) {
        return sendJson(response, 408, rpcError(JSON_RPC.invalidRequest, 'Request timeout: the body did not arrive in time.'), {
          connection: 'close',
        });
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
    const ownId = isRequest(body) ? body.id : null;
    if (unknownSession) return sendJson(response, 404, rpcError(JSON_RPC.sessionNotFound, SESSION_NOT_FOUND, ownId));
    if (draining && isRequest(body)) return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.', body.id));
    if (session !== undefined) return session.handle(request, response, body, bytes);
    // 2026-07-28: no session; the SDK's own classification decides, so the two never disagree.
    if (isPlainObject(body) && !(await modern.isLegacy(request, body))) {
      if (draining)
        return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.', isRequest(body) ? body.id : null));
      return modern.serve(request, response, body, principalOf(options.token));
    }
    if (draining) return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.', ownId));
    if (!isInitialize(body)) {
      return sendJson(
        response,
        400,
        rpcError(JSON_RPC.invalidRequest, 'Bad Request: no Mcp-Session-Id header; start with an initialize request.', ownId),
      );
    }
    if (sessions.size + opening >= maxSessions) {
      return sendJson(
        response,
        503,
        rpcError(JSON_RPC.internalError, `Too many sessions: this server keeps at most ${maxSessions}; end one (DELETE /mcp) or retry later.`, ownId),
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
    await fresh.handle(request, response, body, bytes);
    // An initialize the transport refused leaves a session no client can name.
    if (fresh.id === undefined || !sessions.has(fresh.id)) await fresh.close();
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = checkAccess(request, options.token, origins, options.loopbackOnly === true);
    if (refusal !== undefined) {
      return sendJson(
        response,
        refusal.status,
        rpcError(JSON_RPC.invalidRequest, refusal.message),
        // A client turned away before authentication keeps no connection open to try again on.
        refusal.status === 401 ? { 'www-authenticate': 'Bearer', connection: 'close' } : { connection: 'close' },
      );
    }
    options.onAccess?.(request);
    const header = request.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    const session = id === undefined ? undefined : sessions.get(id);
    // A POST is read first, so that even this refusal answers under the request's own id.
    if (request.method === 'POST') return handlePost(request, response, session, id !== undefined && session === undefined);
    if (id !== undefined && session === undefined) {
      return sendJson(response, 404, rpcError(JSON_RPC.sessionNotFound, SESSION_NOT_FOUND));
    }
    if (request.method === 'GET' || request.method === 'DELETE') {
      if (session === undefined)
        return sendJson(response, 400, rpcError(JSON_RPC.invalidRequest, 'Bad Request: an Mcp-Session-Id header is required.'));
      if (draining && request.method === 'GET') return sendJson(response, 503, rpcError(JSON_RPC.internalError, 'The server is shutting down.'));
      return session.handle(request, response);
    }
    sendJson(response, 405, rpcError(JSON_RPC.invalidRequest, 'Method not allowed.'), { allow: 'GET, POST, DELETE' });
  }

  // Idle expiry: a session with nothing in flight and no request for the idle time ends.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values()) {
        if (!session.busy && now - session.lastActivity >= sessionIdleMs) {
          log(`session ${session.id} idle for ${Math.round((now - session.lastActivity) / 1000)} s: ended`);
          void session.close();
        }
      }
    },
    Math.min(Math.max(Math.floor(sessionIdleMs / 4), 250), 30_000),
  );
  sweep.unref();

  return {
    async handle(request, response) {
      try {
        await route(request, response);
      } catch (error) {
        log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
        sendJson(response, 500, rpcError(JSON_RPC.internalError, 'Internal error.'));
      }
    },
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (draining) return;
      draining = true;
      clearInterval(sweep);
      // Still answering while draining: the answer to an approval a taken call waits on may come
      // on a new request. New sessions and new requests get 503 meanwhile.
      const pending = new Set(sessions.values());
      const drained = Promise.all([modern.drained(), ...[...pending].map((session) => session.drained().then(() => pending.delete(session)))]);
      let deadline: NodeJS.Timeout | undefined;
      const timedOut = new Promise<true>((resolve) => (deadline = setTimeout(() => resolve(true), drainMs)));
      if ((await Promise.race([drained, timedOut])) === true) {
        log(`drain: ${pending.size} session(s) still had replies unwritten after ${drainMs / 1000} s; ending them`);
      }
      clearTimeout(deadline);
      await Promise.all([...sessions.values()].map((session) => session.close()));
      await modern.close();
    },
  };
}
