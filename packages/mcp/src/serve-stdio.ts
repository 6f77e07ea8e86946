import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import type { ApprovalRoundsOptions } from './approvals/approval-rounds.js';
import { type ChannelLimits, DEFAULT_CHANNEL_LIMITS, maxMessageBytes } from './channel-limits.js';
import { createModernStdio } from './modern/modern-stdio.js';
import type { McpProcess, McpRuntime } from './mcp-runtime.js';
import type { MessageChannel, MessageSink } from './message-channel.js';
import { openMcpSession } from './open-mcp-session.js';
import { oversizeAnswer } from './oversize-answer.js';
import { OversizeLineFilter } from './oversize-line-filter.js';
import { lineOf } from './serialized-message.js';

const NEWLINE = 0x0a;

export interface ServeStdioOptions {
  /** Default `process.stdin`. */
  readonly input?: Readable;
  /** Default `process.stdout`; nothing else may write to it (logs go to `log`, stderr by default). */
  readonly output?: Writable;
  /** The process the session's calls run in; default a new one, ended by `close()`. */
  readonly process?: McpProcess;
  readonly log?: (line: string) => void;
  readonly limits?: Partial<ChannelLimits>;
  /** The 2026-07-28 approvals' requestState key and used-state store (default: a key of this process, in memory). */
  readonly approvals?: ApprovalRoundsOptions;
  readonly name?: string;
  readonly version?: string;
}

/** One MCP session over newline-delimited JSON-RPC. */
export interface StdioSession {
  readonly server: Server;
  /** Settles once the input has ended and every request read has been answered and written. */
  readonly finished: Promise<void>;
  /** Settles once every request read so far has been answered and written (the input may go on). */
  drained(): Promise<void>;
  /** Ends the session: its server, and its process when `serveStdio` spawned it. */
  close(): Promise<void>;
}

/**
 * Serves one MCP session on `input` and `output` (stdio by default) with the bounds of docs/mcp.md:
 * a line longer than the arguments bound allows is answered (`arguments_too_large`) without being
 * held, and no request is read while the session is at its bounds of calls in flight or unwritten
 * reply bytes, so a client that never reads its replies cannot grow the server's memory.
 */
export async function serveStdio(runtime: McpRuntime, options: ServeStdioOptions = {}): Promise<StdioSession> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const log = options.log ?? ((line: string) => void process.stderr.write(`libos mcp: ${line}\n`));
  const owned = options.process === undefined;
  const agent = options.process ?? runtime.spawn();
  const modern = createModernStdio(runtime, agent, {
    name: options.name,
    version: options.version,
    log,
    maxReplyBytes: { ...DEFAULT_CHANNEL_LIMITS, ...options.limits }.maxReplyBytes,
    maxRequestBytes: maxMessageBytes(runtime.bounds.arguments_max_bytes),
    approvals: options.approvals,
  });
  const { channel, server } = await openMcpSession({
    runtime,
    process: agent,
    modern: modern.answer,
    sink: streamSink(output),
    log,
    limits: options.limits,
    name: options.name,
    version: options.version,
  });
  // A longer line never reaches the channel: the filter drops it as it streams and the request is
  // answered here, a tool call with arguments_too_large.
  const argumentsMaxBytes = runtime.bounds.arguments_max_bytes;
  const maxLineBytes = maxMessageBytes(argumentsMaxBytes);
  const lines = new OversizeLineFilter(maxLineBytes, (line) => {
    log(`dropped a message of ${line.bytes} bytes (more than ${maxLineBytes})`);
    const answer = oversizeAnswer(line, argumentsMaxBytes, maxLineBytes);
    if (answer !== undefined) channel.reply(answer);
  });
  input.pipe(lines);
  let closed = false;
  return {
    server,
    finished: serveLines(channel, lines),
    drained: () => channel.drained(),
    async close() {
      if (closed) return;
      closed = true;
      input.unpipe(lines);
      try {
        await server.close();
        await modern.close();
      } finally {
        if (owned) await agent.end?.();
      }
    },
  };
}

/**
 * A sink that writes newline-delimited JSON to a stream and settles when the stream has handed
 * the bytes on (its write callback), so a reader that never reads keeps them counted as unwritten.
 * Each line is one buffer, which a pipe writes from without copying it again (a string would be
 * copied whole into native memory first).
 */
export function streamSink(output: Writable): MessageSink {
  return (_message, serialized) =>
    new Promise((resolve, reject) => {
      output.write(lineOf(serialized), (error) => (error ? reject(error) : resolve()));
    });
}

/**
 * Reads newline-delimited messages from `input` into `channel`, reading no line while the channel
 * is not readable (so the OS pipe fills and the client's writes wait: back-pressure), and returns
 * once the input has ended and every request read has been answered and written.
 */
export async function serveLines(channel: MessageChannel, input: Readable): Promise<void> {
  let pending: Buffer | undefined;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    const data = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
    pending = undefined;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(NEWLINE, start);
      if (newline === -1) {
        pending = data.subarray(start);
        break;
      }
      await channel.whenReadable();
      channel.receiveLine(data.subarray(start, newline));
      start = newline + 1;
    }
  }
  // A last line without a newline is not a message (the SDK's transport ignores it too).
  channel.endOfInput();
  await channel.drained();
}
