import type { AuditCallerContext } from '@libos/core';
import { type CallToolResult, type RequestId, Server, type Tool } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { type CallApprovals, currentCall } from './current-call.js';
import { APPROVAL_WINDOW_MS, approvalMessage } from './elicitation-approver.js';
import type { McpProcess, McpRuntime } from './mcp-runtime.js';
import { runToolCall } from './run-tool-call.js';
import { toMcpTool } from './to-mcp-tool.js';
import { VERSION } from './version.js';

export interface McpServerOptions {
  /** The process the session's calls run in; default a new one (`runtime.spawn()`), ended when the server's transport closes. */
  readonly process?: McpProcess;
  /** The server's name and version as `initialize` reports them (default `libos` and this package's version). */
  readonly name?: string;
  readonly version?: string;
  /** Where the server reports what a client cannot see (a call that threw, a dropped message). */
  readonly log?: (line: string) => void;
  /** The MCP session id (Streamable HTTP, known once `initialize` is answered), which each call's audit record names. */
  readonly sessionIdOf?: () => string | undefined;
}

/** One `tools/call` of a 2025-era session: the arguments as the client's JSON held them, and the call's own signal. */
export interface SessionToolCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly signal: AbortSignal;
  /** The id the call's request travels under on the server's transport, which its approval's elicitation relates to. */
  readonly relatedId: RequestId;
}

/** The 2025-era session server and the one way its tool calls run (the message channel runs them itself). */
export interface SessionServer {
  readonly server: Server;
  readonly callTool: (call: SessionToolCall) => Promise<CallToolResult>;
}

/**
 * The MCP server of one session over `runtime`'s tools, connectable to any SDK transport (SDK v2's
 * low-level `Server`, which serves the 2025-era handshake). The runtime validates arguments itself,
 * so bad arguments come back as its own failures rather than SDK error texts. `serveStdio` and
 * `createMcpHttpHandler` add the bounds a server facing untrusted clients needs (docs/mcp.md).
 */
export function createMcpServer(runtime: McpRuntime, options: McpServerOptions = {}): Server {
  return createSessionServer(runtime, options).server;
}

/**
 * The session server with its `tools/call` as a function: registered as the SDK's handler (for
 * any transport), and called by the message channel directly, which owns each call end to end.
 */
export function createSessionServer(runtime: McpRuntime, options: McpServerOptions = {}): SessionServer {
  const log = options.log ?? (() => {});
  const process = options.process ?? runtime.spawn();
  // Written at the first `tools/list`: a session that never lists (or not yet) pays nothing for it.
  let published: Tool[] | undefined;
  // The validator of a client's answer to an elicitation (an approval): the SDK's Node default, Ajv,
  // is five times the code of this one.
  const server = new ProcessServer(
    { name: options.name ?? 'libos', title: 'libOS workspace', version: options.version ?? VERSION },
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    options.process === undefined ? process : undefined,
  );
  const caller = sameCaller(server, options.sessionIdOf);
  const callTool = (call: SessionToolCall): Promise<CallToolResult> =>
    currentCall.run(elicitingApprovals(server, call.relatedId), () =>
      runToolCall(process, call.name, call.arguments, { signal: call.signal, caller: caller(), tools: runtime.tools, log }),
    );
  server.setRequestHandler('tools/list', () => ({ tools: (published ??= runtime.tools.map(toMcpTool)) }));
  server.setRequestHandler('tools/call', (request, ctx) =>
    callTool({ name: request.params.name, arguments: request.params.arguments, signal: ctx.mcpReq.signal, relatedId: ctx.mcpReq.id }),
  );
  recordSessionStart(server, process, options, log);
  return { server, callTool };
}

/** A server that ends the process it spawned when its transport closes (the SDK's own close hook). */
class ProcessServer extends Server {
  readonly #owned: McpProcess | undefined;

  constructor(info: ConstructorParameters<typeof Server>[0], serverOptions: ConstructorParameters<typeof Server>[1], owned: McpProcess | undefined) {
    super(info, serverOptions);
    this.#owned = owned;
  }

  protected override _onclose(): void {
    try {
      super._onclose();
    } finally {
      void Promise.resolve(this.#owned?.end?.()).catch(() => {});
    }
  }
}

/**
 * An MCP session with an id (Streamable HTTP) has its own start record once the client has
 * initialized, and its end record when its process ends (RuntimeProcess.beginSession). Over stdio
 * the runtime's own session is the MCP session, and already has both.
 */
function recordSessionStart(server: Server, process: McpProcess, options: McpServerOptions, log: (line: string) => void): void {
  const embedder = server.oninitialized;
  server.oninitialized = () => {
    embedder?.();
    const session = options.sessionIdOf?.();
    if (session === undefined || process.beginSession === undefined) return;
    process.beginSession({ ...callerOf(server, session), session }).catch((error: unknown) => {
      log(`the audit trail could not record the start of session ${session}: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}

/** Who the audit record says made the call: the client as it named itself in `initialize`. */
export function callerOf(server: Server, sessionId: string | undefined): AuditCallerContext {
  const client = server.getClientVersion();
  return {
    ...(sessionId === undefined ? {} : { session: sessionId }),
    ...(client === undefined ? {} : { client: { name: client.name, version: client.version } }),
  };
}

/** `callerOf`, built again only when the client's `initialize` or the session id has changed since the last call. */
function sameCaller(server: Server, sessionIdOf: (() => string | undefined) | undefined): () => AuditCallerContext {
  let last: { client: unknown; session: string | undefined; caller: AuditCallerContext } | undefined;
  return () => {
    const client = server.getClientVersion();
    const session = sessionIdOf?.();
    if (last === undefined || last.client !== client || last.session !== session) last = { client, session, caller: callerOf(server, session) };
    return last.caller;
  };
}

/**
 * A 2025-era session asks its person by an elicitation request related to the call (over HTTP it
 * travels on the call's own response stream), when its client declared form elicitation.
 */
function elicitingApprovals(server: Server, requestId: RequestId): CallApprovals {
  const elicits = () => server.getClientCapabilities()?.elicitation?.form !== undefined;
  return {
    get elicits() {
      return elicits();
    },
    async ask(request, signal) {
      if (!elicits()) return 'unavailable';
      const answer = await server.elicitInput(
        { mode: 'form', message: approvalMessage(request), requestedSchema: { type: 'object', properties: {} } },
        { timeout: APPROVAL_WINDOW_MS, relatedRequestId: requestId, ...(signal === undefined ? {} : { signal }) },
      );
      if (answer.action === 'accept') return 'approve';
      return answer.action === 'decline' ? 'reject' : 'unavailable';
    },
  };
}
