import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ChannelLimits } from '../channel-limits.js';
import { idKey, isRequest, isResponse } from '../json-rpc.js';
import type { McpProcess, McpRuntime } from '../mcp-runtime.js';
import { openMcpSession, type McpSession } from '../open-mcp-session.js';

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
 * Resolves when the response has been handed to the OS whole, or its connection is gone. A response
 * queued behind others on a pipelined HTTP/1.1 connection has no socket of its own yet, and when
 * that connection is destroyed Node emits neither `close` nor `finish` for it: the connection's
 * own `close` releases it, or its reply bytes would stay counted as unwritten for good.
 */
function whenSent(response: ServerResponse, connection: Socket): Promise<void> {
  if (response.writableFinished || response.destroyed || connection.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = AsyncResource.bind(() => {
      response.off('close', done);
      connection.off('close', done);
      resolve();
    });
    response.once('close', done);
    connection.once('close', done);
  });
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
  readonly #transport: StreamableHTTPServerTransport;
  readonly #pending = new Map<string, { readonly response: ServerResponse; readonly connection: Socket }>();
  /** Request bodies as the client's JSON held them, by id, until the transport hands them on. */
  readonly #raw = new Map<string, { readonly body: unknown; readonly bytes: number }>();
  readonly #options: HttpSessionOptions;
  #session: McpSession | undefined;
  #closed = false;

  private constructor(options: HttpSessionOptions) {
    this.#options = options;
    this.process = options.process;
    this.#transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: () => options.onInitialized(this),
      onsessionclosed: () => this.close(),
    });
  }

  static async open(options: HttpSessionOptions): Promise<HttpSession> {
    const session = new HttpSession(options);
    const transport = session.#transport;
    session.#session = await openMcpSession({
      runtime: options.runtime,
      process: options.process,
      log: options.log,
      limits: options.limits,
      name: options.name,
      version: options.version,
      sessionIdOf: () => transport.sessionId,
      sink: async (message, _serialized, sendOptions) => {
        const related = sendOptions?.relatedRequestId;
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
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Session not found' } }));
          return;
        }
        this.#pending.set(idKey(body.id), { response, connection: request.socket });
        this.#raw.set(idKey(body.id), { body, bytes: bodyBytes });
      }
      await this.#transport.handleRequest(request, response, body);
      if (isRequest(body)) this.#raw.delete(idKey(body.id));
    } finally {
      if (counted) this.#openRequests.delete(request);
      this.lastActivity = Date.now();
    }
  }

  /** Every request read has been answered and written (for a drain at shutdown). */
  drained(): Promise<void> {
    return this.mcp.channel.drained();
  }

  /** Ends the session: its streams, its server and its libOS process (and with it its namespace). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#session?.server.close();
      await this.#transport.close();
      await this.process.end?.();
    } finally {
      this.#options.onClosed(this);
    }
  }
}
