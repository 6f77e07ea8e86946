import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolProcess, ToolSummary } from '../workspace/runtime-shape.js';
import { VERSION } from '../version.js';
import type { ChannelLimits } from './channel-limits.js';
import { createMcpServer } from './create-mcp-server.js';
import { MessageChannel, type MessageSink } from './message-channel.js';
import { oversizeToolResult, preemptMalformedToolCall } from './tool-call-hooks.js';

export interface McpSessionOptions {
  readonly tools: readonly ToolSummary[];
  /** The libOS process the session's calls run in. */
  readonly process: ToolProcess;
  /** Where replies go: a stream (stdio) or an HTTP transport. */
  readonly sink: MessageSink;
  readonly log: (line: string) => void;
  readonly limits?: Partial<ChannelLimits>;
  readonly sessionId?: string;
  /** The MCP session id for audit records, when it is known only later (Streamable HTTP); default `sessionId`. */
  readonly sessionIdOf?: () => string | undefined;
}

/** One MCP session: the bounded message channel and the SDK server connected to it. */
export interface McpSession {
  readonly channel: MessageChannel;
  readonly server: Server;
}

/**
 * Builds the one session pipeline both transports use (stdio and Streamable HTTP): the channel
 * keeps the bounds (calls in flight, unwritten bytes, reply size) and exact JSON-RPC answers, the
 * server publishes the tools and runs each call in `process`.
 */
export async function openMcpSession(options: McpSessionOptions): Promise<McpSession> {
  const { tools, process, log } = options;
  const channel = new MessageChannel({
    sink: options.sink,
    preempt: preemptMalformedToolCall(process),
    oversizeResult: oversizeToolResult(tools),
    log,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
  const server = createMcpServer(tools, process, VERSION, {
    log,
    signalOf: (id) => channel.signalOf(id),
    noteResult: (id, known) => channel.noteResult(id, known),
    sessionIdOf: options.sessionIdOf ?? (() => options.sessionId),
  });
  server.onerror = (error) => log(error.message);
  await server.connect(channel);
  return { channel, server };
}
