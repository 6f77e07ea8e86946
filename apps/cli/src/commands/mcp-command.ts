import { parseArgs } from 'node:util';
import { maxMessageBytes } from '../mcp/channel-limits.js';
import { createElicitationApprover } from '../mcp/elicitation-approver.js';
import { openMcpSession, type McpSession } from '../mcp/open-mcp-session.js';
import { oversizeAnswer } from '../mcp/oversize-answer.js';
import { OversizeLineFilter } from '../mcp/oversize-line-filter.js';
import { serveLines, streamSink } from '../mcp/serve-stdio.js';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { MCP_HELP } from './help-texts.js';

function log(line: string): void {
  process.stderr.write(`libos mcp: ${line}\n`);
}

/** `libos mcp`: serves one session over stdio until stdin closes, then exits 0. */
export async function mcpCommand(args: readonly string[]): Promise<number | undefined> {
  const { values, positionals } = parseCommandLine('libos mcp', () => parseArgs(strictArgs(args, WORKSPACE_FLAGS)));
  if (values.help === true) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  expectPositionals('libos mcp', positionals, 0);
  const options = workspaceOptionsFrom('libos mcp', values);

  let mcp: McpSession | undefined;
  const workspace = await openWorkspace(options, createElicitationApprover(() => mcp?.server));
  const session = workspace.runtime.spawn();
  mcp = await openMcpSession({ tools: workspace.runtime.tools, process: session, sink: streamSink(process.stdout), log });
  const { channel, server } = mcp;

  let closing = false;
  const shutdown = async (status: number): Promise<void> => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
      // The session's process ends with the session: its namespace and Objects are dropped.
      await session.end?.();
      await workspace.close();
    } catch (error) {
      log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      status = 1;
    }
    process.exit(status);
  };
  // A broken stdout means the client is gone: end like an EOF, saving the Objects.
  process.stdout.once('error', () => void shutdown(0));
  // A closed terminal (SIGHUP) ends the session like the other signals, saving the Objects.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown(0));

  // A longer line never reaches the channel: the filter drops it as it streams and the request is
  // answered here, a tool call with arguments_too_large.
  const maxLineBytes = maxMessageBytes(workspace.bounds.arguments_max_bytes);
  const input = new OversizeLineFilter(maxLineBytes, (line) => {
    log(`dropped a message of ${line.bytes} bytes (more than ${maxLineBytes})`);
    const answer = oversizeAnswer(line, workspace.bounds.arguments_max_bytes, maxLineBytes);
    if (answer !== undefined) channel.reply(answer);
  });
  process.stdin.pipe(input);
  log(`serving ${workspace.runtime.tools.length} tools (${options.provider} provider) on stdio`);
  // End of input: every request already read is answered and written before the session ends.
  serveLines(channel, input).then(
    () => shutdown(0),
    (error: unknown) => {
      log(`reading stdin failed: ${error instanceof Error ? error.message : String(error)}`);
      void shutdown(0);
    },
  );
  return undefined;
}
