import type { AuditCallerContext } from '@libos/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { CallToolRequestSchema, ListToolsRequestSchema, type ListToolsResult, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { type CallApprovals, currentCall } from './current-call.js';
import { APPROVAL_WINDOW_MS, approvalMessage } from './elicitation-approver.js';
import { toMcpTool } from './to-mcp-tool.js';
import type { McpProcess, McpRuntime } from './mcp-runtime.js';
import type { KnownStructure } from './serialized-message.js';
import { knownStructure, toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';
import { VERSION } from './version.js';

export interface McpServerOptions {
  /** The process the session's calls run in; default a new one (`runtime.spawn()`), ended when the server's transport closes. */
  readonly process?: McpProcess;
  /** The server's name and version as `initialize` reports them (default `libos` and this package's version). */
  readonly name?: string;
  readonly version?: string;
  /** Where the server reports what a client cannot see (a call that threw, a dropped message). */
  readonly log?: (line: string) => void;
  /**
   * The cancellation signal of request `id`, when the transport keeps cancellation itself (the
   * message channel does, so a cancelled call is still answered); else the SDK's own signal is used.
   */
  readonly signalOf?: (id: RequestId) => AbortSignal | undefined;
  /**
   * The `arguments` of request `id` exactly as the client sent them. The SDK's parse of a request
   * drops a `__proto__` key the runtime would refuse; the channel keeps the parsed JSON as it came.
   */
  readonly argumentsOf?: (id: RequestId) => unknown;
  /**
   * Told the structuredContent of request `id`'s reply with its JSON (the text block's text), so
   * that the transport can write the reply without serializing the result again.
   */
  readonly noteResult?: (id: RequestId, known: KnownStructure) => void;
  /** The MCP session id (Streamable HTTP, known once `initialize` is answered), which each call's audit record names. */
  readonly sessionIdOf?: () => string | undefined;
}

/**
 * The MCP server of one session over `runtime`'s tools, connectable to any SDK transport. The
 * low-level Server leaves argument validation to the runtime, so bad arguments come back as the
 * runtime's own failures rather than SDK error texts. `serveStdio` and `createMcpHttpHandler` add
 * the bounds a server facing untrusted clients needs (docs/mcp.md).
 */
export function createMcpServer(runtime: McpRuntime, options: McpServerOptions = {}): Server {
  const log = options.log ?? (() => {});
  const owned = options.process === undefined;
  const process = options.process ?? runtime.spawn();
  const published = runtime.tools.map(toMcpTool) as ListToolsResult['tools'];
  // The validator of a client's answer to an elicitation (an approval): the SDK's default, Ajv, is
  // five times the code to load at every start.
  const server = new Server(
    { name: options.name ?? 'libos', title: 'libOS workspace', version: options.version ?? VERSION },
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: published }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const signal = options.signalOf?.(extra.requestId) ?? extra.signal;
      const callArguments = options.argumentsOf === undefined ? request.params.arguments : options.argumentsOf(extra.requestId);
      const outcome = await currentCall.run(elicitingApprovals(server, extra.requestId), () =>
        process.call(request.params.name, callArguments ?? {}, { signal, caller: callerOf(server, options.sessionIdOf?.()) }),
      );
      const known = outcome.ok ? knownStructure(outcome.result) : undefined;
      if (known !== undefined) options.noteResult?.(extra.requestId, known);
      return toCallToolResult(outcome);
    } catch (error) {
      // A throw here is a bug; a JSON-RPC error would carry its raw text (maybe a host path) to the client.
      log(`unexpected failure in ${request.params.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE });
    }
  });
  if (owned) endWithTransport(server, process);
  recordSessionStart(server, process, options, log);
  return server;
}

/**
 * A process the server spawned ends when its transport closes. The SDK chains its own close
 * handler onto the transport's at connect, so this chains after that one, leaving `server.onclose`
 * to the embedder.
 */
function endWithTransport(server: Server, process: McpProcess): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const inner = transport.onclose;
    transport.onclose = () => {
      inner?.();
      void Promise.resolve(process.end?.()).catch(() => {});
    };
  };
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

/**
 * A 2025-era session asks its person by an elicitation request related to the call (over HTTP it
 * travels on the call's own response stream), when its client declared form elicitation.
 */
function elicitingApprovals(server: Server, requestId: RequestId): CallApprovals {
  return {
    async ask(request, signal) {
      if (server.getClientCapabilities()?.elicitation?.form === undefined) return 'unavailable';
      const answer = await server.elicitInput(
        { mode: 'form', message: approvalMessage(request), requestedSchema: { type: 'object', properties: {} } },
        { timeout: APPROVAL_WINDOW_MS, relatedRequestId: requestId, ...(signal === undefined ? {} : { signal }) },
      );
      if (answer.action === 'accept') return 'approve';
      return answer.action === 'decline' ? 'reject' : 'unavailable';
    },
  };
}
