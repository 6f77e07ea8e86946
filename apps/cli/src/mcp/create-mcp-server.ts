import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolProcess, ToolSummary } from '../workspace/runtime-shape.js';
import { currentCall } from './current-call.js';
import { toCallToolResult, UNEXPECTED_FAILURE } from './to-call-tool-result.js';

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
}

/**
 * The MCP server of one session. The low-level Server leaves argument validation to the runtime,
 * so bad arguments come back as the contract's own failures rather than SDK error texts.
 */
export function createMcpServer(tools: readonly ToolSummary[], process: ToolProcess, version: string, options: McpServerOptions = {}): Server {
  const log = options.log ?? (() => {});
  const published = tools.map(toMcpTool);
  const server = new Server({ name: 'libos', title: 'libOS workspace', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: published }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    try {
      const signal = options.signalOf?.(extra.requestId) ?? extra.signal;
      const outcome = await currentCall.run({ requestId: extra.requestId }, () =>
        process.call(request.params.name, request.params.arguments ?? {}, { signal }),
      );
      return toCallToolResult(outcome);
    } catch (error) {
      // A throw here is a bug; a JSON-RPC error would carry its raw text (maybe a host path) to the client.
      log(`unexpected failure in ${request.params.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return toCallToolResult({ ok: false, error: UNEXPECTED_FAILURE });
    }
  });
  return server;
}
