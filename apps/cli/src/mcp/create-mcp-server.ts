import type { AuditCallerContext } from '@libos/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { CallToolRequestSchema, ListToolsRequestSchema, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProcess, ToolSummary } from '../workspace/runtime-shape.js';
import { currentCall } from './current-call.js';
import type { KnownStructure } from './serialized-message.js';
import { knownStructure, toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';

/** A tool as `tools/list` publishes it. */
export function toMcpTool(tool: ToolSummary): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as NonNullable<Tool['outputSchema']>,
    annotations: {
      title: tool.title,
      readOnlyHint: tool.annotations.readOnlyHint,
      destructiveHint: tool.annotations.destructiveHint,
      idempotentHint: tool.annotations.idempotentHint,
      openWorldHint: false,
    },
  };
}

export interface McpServerOptions {
  readonly log?: (line: string) => void;
  /**
   * The cancellation signal of request `id`, when the transport keeps cancellation itself (the
   * MessageChannel does, so a cancelled call is still answered); else the SDK's own signal is used.
   */
  readonly signalOf?: (id: RequestId) => AbortSignal | undefined;
  /**
   * Told the structuredContent of request `id`'s reply with its JSON (the text block's text), so
   * that the transport can write the reply without serializing the result again.
   */
  readonly noteResult?: (id: RequestId, known: KnownStructure) => void;
  /** The MCP session id (Streamable HTTP, known once `initialize` is answered), which each call's audit record names. */
  readonly sessionIdOf?: () => string | undefined;
}

/**
 * The MCP server of one session. The low-level Server leaves argument validation to the runtime,
 * so bad arguments come back as the contract's own failures rather than SDK error texts.
 */
export function createMcpServer(tools: readonly ToolSummary[], process: ToolProcess, version: string, options: McpServerOptions = {}): Server {
  const log = options.log ?? (() => {});
  const published = tools.map(toMcpTool);
  // The validator of a client's answer to an elicitation (an approval): the SDK's default, Ajv, is
  // five times the code to load at every start (the bin's bundle leaves it out, see tsup.config.ts).
  const server = new Server(
    { name: 'libos', title: 'libOS workspace', version },
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: published }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const signal = options.signalOf?.(extra.requestId) ?? extra.signal;
      const outcome = await currentCall.run({ requestId: extra.requestId }, () =>
        process.call(request.params.name, request.params.arguments ?? {}, { signal, caller: callerOf(server, options.sessionIdOf?.()) }),
      );
      if (outcome.ok) options.noteResult?.(extra.requestId, knownStructure(outcome.result));
      return toCallToolResult(outcome);
    } catch (error) {
      // A throw here is a bug; a JSON-RPC error would carry its raw text (maybe a host path) to the client.
      log(`unexpected failure in ${request.params.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE });
    }
  });
  return server;
}

// Who the audit record says made the call: the client as it named itself in `initialize`.
function callerOf(server: Server, sessionId: string | undefined): AuditCallerContext {
  const client = server.getClientVersion();
  return {
    ...(sessionId === undefined ? {} : { session: sessionId }),
    ...(client === undefined ? {} : { client: { name: client.name, version: client.version } }),
  };
}
