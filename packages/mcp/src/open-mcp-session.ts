import type { Server } from '@modelcontextprotocol/server';
import type { ChannelLimits } from './channel-limits.js';
import { callerOf, createSessionServer } from './create-mcp-server.js';
import type { McpProcess, McpRuntime } from './mcp-runtime.js';
import { MessageChannel, type MessageSink } from './message-channel.js';
import { oversizeToolResult, ownToolCalls, type PreemptAnswer } from './tool-call-hooks.js';

export interface McpSessionOptions {
  readonly runtime: McpRuntime;
  /** The libOS process the session's calls run in. */
  readonly process: McpProcess;
  /** Where replies go: a stream (stdio) or an HTTP response. */
  readonly sink: MessageSink;
  readonly log: (line: string) => void;
  readonly limits?: Partial<ChannelLimits> | undefined;
  readonly sessionId?: string | undefined;
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  /** Answers 2026-07-28 requests before the session's 2025-era server sees them (stdio: `createModernStdio`). */
  readonly modern?: ((method: string, params: unknown, signal: AbortSignal) => Promise<PreemptAnswer> | undefined) | undefined;
  /** The MCP session id for audit records, when it is known only later (Streamable HTTP); default `sessionId`. */
  readonly sessionIdOf?: (() => string | undefined) | undefined;
}

/** One MCP session: the bounded message channel and the SDK server connected to it. */
export interface McpSession {
  readonly channel: MessageChannel;
  readonly server: Server;
}

/**
 * Builds the one session pipeline both transports use (stdio and Streamable HTTP): the channel
 * keeps the bounds (calls in flight, unwritten bytes, reply size) and exact JSON-RPC answers, and
 * runs each `tools/call` itself in `process`; SDK v2's `Server` answers the rest of the 2025-era
 * protocol (the handshake, `tools/list`, ping) and carries the approvals' elicitation requests.
 */
export async function openMcpSession(options: McpSessionOptions): Promise<McpSession> {
  const { runtime, process, log } = options;
  const sessionIdOf = options.sessionIdOf ?? (() => options.sessionId);
  const { server, callTool } = createSessionServer(runtime, {
    process,
    log,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.version === undefined ? {} : { version: options.version }),
    sessionIdOf,
  });
  // A call refused before it runs is recorded under its session and client all the same.
  const toolCall = ownToolCalls(process, callTool, () => callerOf(server, sessionIdOf()));
  const channel = new MessageChannel({
    sink: options.sink,
    preempt: (request) => options.modern?.(request.method, request.params, request.signal) ?? toolCall(request),
    oversizeResult: oversizeToolResult(runtime.tools),
    log,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
  server.onerror = (error) => log(error.message);
  await server.connect(channel);
  return { channel, server };
}
