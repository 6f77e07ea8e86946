import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ChannelLimits } from '../mcp/channel-limits.js';
import { openMcpSession, type McpSession } from '../mcp/open-mcp-session.js';
import type { ToolProcess, ToolSummary } from '../workspace/runtime-shape.js';

/**
 * The session whose HTTP request is being handled. One runtime (and so one approver) serves every
 * session; an approval asked inside a call must reach the client of that call's session, and the
 * call runs in the async context of the request that carried it.
 */
export const currentSession = new AsyncLocalStorage<HttpSession>();

export interface HttpSessionOptions {
  readonly tools: readonly ToolSummary[];
  readonly process: ToolProcess;
  readonly log: (line: string) => void;
  readonly limits?: Partial<ChannelLimits>;
  /** Called once the transport has given the session its id (after `initialize`). */
  readonly onInitialized: (session: HttpSession) => void;
  /** Called once when the session ends, however it ended. */
  readonly onClosed: (session: HttpSession) => void;
}

/** Map key of a JSON-RPC id: 7 and "7" are different ids. */
function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

/** A JSON-RPC request (it has an id and waits for an answer), as opposed to a response or notification. */
export function isRequest(message: unknown): message is { id: string | number; method: string } {
  return typeof message === 'object' && message !== null && 'method' in message && 'id' in message;
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return 'id' in message && ('result' in message || 'error' in message);
}

/** Resolves when the response has been handed to the OS whole, or its connection is gone. */
function whenSent(response: ServerResponse): Promise<void> {
  if (response.writableFinished || response.destroyed) return Promise.resolve();
  return new Promise((resolve) =>
    response.once(
      'close',
      AsyncResource.bind(() => resolve()),
    ),
  );
}

/**
 * One MCP session over Streamable HTTP: the SDK transport, the same message channel and server as
 * stdio (so the same bounds and JSON-RPC answers), and one libOS process. A reply counts as
 * unwritten until its HTTP response has been sent whole, so a client that never reads its
 * responses stops the session's reading (back-pressure) instead of growing the server's memory.
 */
export class HttpSession {
  readonly process: ToolProcess;
  lastActivity = Date.now();
  /** POST requests of this session not yet answered (an open GET stream waits for nothing). */
  openRequests = 0;
  readonly #transport: StreamableHTTPServerTransport;
  readonly #pending = new Map<string, ServerResponse>();
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
      tools: options.tools,
      process: options.process,
      log: options.log,
      sessionIdOf: () => transport.sessionId,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      sink: async (message, _serialized, sendOptions) => {
        const related = sendOptions?.relatedRequestId;
        await transport.send(message, related === undefined ? undefined : { relatedRequestId: related });
        if (!isResponse(message)) return;
        const response = session.#pending.get(idKey(message.id));
        session.#pending.delete(idKey(message.id));
        if (response !== undefined) await whenSent(response);
      },
    });
    const channel = session.#session.channel;
    transport.onmessage = (message, extra) => channel.receive(message, Buffer.byteLength(JSON.stringify(message), 'utf8'), extra);
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
    return this.openRequests > 0 || this.mcp.channel.callsInFlight > 0;
  }

  /**
   * Hands one HTTP request to the transport. A new request waits while the channel is at its
   * bounds (its client has not taken earlier replies), so held requests stay in the socket, not in
   * memory; responses and notifications pass, since the channel may be waiting for exactly them.
   */
  async handle(request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void> {
    const counted = request.method === 'POST';
    if (counted) this.openRequests += 1;
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
        this.#pending.set(idKey(body.id), response);
      }
      await currentSession.run(this, () => this.#transport.handleRequest(request, response, body));
    } finally {
      if (counted) this.openRequests -= 1;
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
