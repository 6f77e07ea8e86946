import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { ChannelLimits } from '../channel-limits.js';
import { idKey, isInitialize, isRequest, isResponse, JSON_RPC } from '../json-rpc.js';
import type { McpProcess, McpRuntime } from '../mcp-runtime.js';
import { openMcpSession, type McpSession } from '../open-mcp-session.js';
import { createCallStreams, refusePost, whenSent } from './call-streams.js';
import { loadNodeAdapter, type NodeAdapter } from './load-node-adapter.js';
import { rpcError, sendJson } from './send-json.js';

const DUPLICATE_ID = 'Invalid Request: a request of this session with this id is still in flight; use another id.';

export interface HttpSessionOptions {
  readonly runtime: McpRuntime;
  readonly process: McpProcess;
  readonly log: (line: string) => void;
  readonly limits?: Partial<ChannelLimits> | undefined;
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  /** Called once the transport has given the session its id (after `initialize`). */
  readonly onInitialized: (session: HttpSession) => void;
  /** Called once when the session ends, however it ended. */
  readonly onClosed: (session: HttpSession) => void;
}

/**
 * One MCP session over Streamable HTTP: the SDK transport, the same message channel and server as
 * stdio (so the same bounds and JSON-RPC answers), and one libOS process. A reply counts as
 * unwritten until its HTTP response has been sent whole, so a client that never reads its
 * responses stops the session's reading (back-pressure) instead of growing the server's memory.
 */
export class HttpSession {
  readonly process: McpProcess;
  lastActivity = Date.now();
  /** POST requests of this session not yet answered (an open GET stream waits for nothing). */
  readonly #openRequests = new Set<IncomingMessage>();
  readonly #transport: NodeStreamableHTTPServerTransport;
  readonly #pending = new Map<string, { readonly response: ServerResponse; readonly connection: Socket }>();
  /** Request bodies as the client's JSON held them, by id, until the transport hands them on. */
  readonly #raw = new Map<string, { readonly body: unknown; readonly bytes: number }>();
  readonly #options: HttpSessionOptions;
  readonly #streams = createCallStreams(() => this.#transport.sessionId);
  #session: McpSession | undefined;
  #closed = false;

  private constructor(options: HttpSessionOptions, adapter: NodeAdapter) {
    this.#options = options;
    this.process = options.process;
    this.#transport = new adapter.NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: () => options.onInitialized(this),
      onsessionclosed: () => this.close(),
    });
  }

  static async open(options: HttpSessionOptions): Promise<HttpSession> {
    const session = new HttpSession(options, await loadNodeAdapter());
    const transport = session.#transport;
    session.#session = await openMcpSession({
      runtime: options.runtime,
      process: options.process,
      log: options.log,
      limits: options.limits,
      name: options.name,
      version: options.version,
      sessionIdOf: () => transport.sessionId,
      sink: async (message, serialized, sendOptions) => {
        const related = sendOptions?.relatedRequestId;
        const direct = session.#streams.write(message, serialized, related, isResponse(message));
        if (direct !== undefined) return direct;
        await transport.send(message, related === undefined ? undefined : { relatedRequestId: related });
        if (!isResponse(message)) return;
        const pending = session.#pending.get(idKey(message.id));
        session.#pending.delete(idKey(message.id));
        if (pending !== undefined) await whenSent(pending.response, pending.connection);
      },
    });
    const channel = session.#session.channel;
    // The transport's own parse of a message drops a `__proto__` key the runtime must see to refuse
    // it, so the channel gets the body as it was read.
    transport.onmessage = (message, extra) => {
      const key = isRequest(message) ? idKey(message.id) : undefined;
      const raw = key === undefined ? undefined : session.#raw.get(key);
      if (key !== undefined) session.#raw.delete(key);
      if (raw !== undefined) channel.receive(raw.body, raw.bytes, extra);
      else channel.receive(message, Buffer.byteLength(JSON.stringify(message), 'utf8'), extra);
    };
    transport.onerror = (error) => options.log(error.message);
    return session;
  }

  get id(): string | undefined {
    return this.#transport.sessionId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  get mcp(): McpSession {
    return this.#session!;
  }

  /** Calls in flight, for idle expiry: a session waiting on a slow call is not idle. */
  get busy(): boolean {
    // A request whose connection is gone waits for nothing a client will read.
    for (const request of this.#openRequests) if (!request.socket.destroyed) return true;
    return this.mcp.channel.callsInFlight > 0;
  }

  /**
   * Hands one HTTP request to the transport. A new request waits while the channel is at its
   * bounds (its client has not taken earlier replies), so held requests stay in the socket, not in
   * memory; responses and notifications pass, since the channel may be waiting for exactly them.
   */
  async handle(request: IncomingMessage, response: ServerResponse, body?: unknown, bodyBytes = 0): Promise<void> {
    const counted = request.method === 'POST';
    if (counted) this.#openRequests.add(request);
    this.lastActivity = Date.now();
    try {
      if (isRequest(body)) {
        await this.mcp.channel.whenReadable();
        if (this.#closed) {
          return sendJson(response, 404, rpcError(JSON_RPC.sessionNotFound, 'Session not found', body.id));
        }
      }
      // Once initialized, a POST skips the SDK transport's web-stream bridge (see call-streams.ts).
      if (counted && this.id !== undefined && !isInitialize(body)) return this.#post(request, response, body, bodyBytes);
      if (isRequest(body)) {
        this.#pending.set(idKey(body.id), { response, connection: request.socket });
        this.#raw.set(idKey(body.id), { body, bytes: bodyBytes });
      }
      await this.#transport.handleRequest(request, response, body);
      if (isRequest(body)) {
        const key = idKey(body.id);
        // Still here: the transport refused the request without delivering it (an `initialize` on an
        // initialized session), so no reply will come to take its response either.
        if (this.#raw.delete(key)) this.#pending.delete(key);
      }
    } finally {
      if (counted) this.#openRequests.delete(request);
      this.lastActivity = Date.now();
    }
  }

  #post(request: IncomingMessage, response: ServerResponse, body: unknown, bodyBytes: number): void {
    const refusal = refusePost(request);
    if (refusal !== undefined) {
      sendJson(response, refusal.status, refusal.body);
      return;
    }
    if (isRequest(body)) {
      // Replies find their response by the client's id: a second request under an id still in
      // flight would take the first one's stream, leaving the first answered on the wrong response
      // and its own open for good. JSON-RPC forbids the repeat; it is refused on its own response.
      if (this.#streams.has(body.id)) {
        sendJson(response, 400, rpcError(JSON_RPC.invalidRequest, DUPLICATE_ID, body.id));
        return;
      }
      this.#streams.open(body.id, response, request.socket);
    }
    this.mcp.channel.receive(body, bodyBytes);
    // Notifications and responses are accepted, as the SDK transport answers them.
    if (!isRequest(body)) response.writeHead(202).end();
  }

  /** Every request read has been answered and written (for a drain at shutdown). */
  drained(): Promise<void> {
    return this.mcp.channel.drained();
  }

  /** Ends the session: its streams, its server and its libOS process (and with it its namespace). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#streams.endAll();
    try {
      await this.#session?.server.close();
      await this.#transport.close();
      await this.process.end?.();
    } finally {
      this.#options.onClosed(this);
    }
  }
}
