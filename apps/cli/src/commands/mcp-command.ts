import { parseArgs } from 'node:util';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { createElicitationApprover } from '../mcp/elicitation-approver.js';
import { MessageChannel } from '../mcp/message-channel.js';
import { oversizeAnswer } from '../mcp/oversize-answer.js';
import { OversizeLineFilter } from '../mcp/oversize-line-filter.js';
import { serveLines, streamSink } from '../mcp/serve-stdio.js';
import { oversizeToolResult, preemptMalformedToolCall } from '../mcp/tool-call-hooks.js';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { VERSION } from '../version.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { MCP_HELP } from './help-texts.js';

/** Room for the JSON-RPC envelope around the largest arguments the bounds accept. */
const ENVELOPE_MARGIN_BYTES = 1024 * 1024;
/** The SDK's own default; never go below it. */
const SDK_MAX_BUFFER_BYTES = 10 * 1024 * 1024;

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

  let server: Server | undefined;
  const workspace = await openWorkspace(
    options,
    createElicitationApprover(() => server),
  );
  const session = workspace.runtime.spawn();
  const channel = new MessageChannel({
    sink: streamSink(process.stdout),
    preempt: preemptMalformedToolCall(session),
    oversizeResult: oversizeToolResult(workspace.runtime.tools),
    log,
  });
  server = createMcpServer(workspace.runtime.tools, session, VERSION, { log, signalOf: (id) => channel.signalOf(id) });

  let closing = false;
  const shutdown = async (status: number): Promise<void> => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
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
  server.onerror = (error) => log(error.message);

  // A longer line never reaches the channel: the filter drops it as it streams and the request is
  // answered here, a tool call with arguments_too_large.
  const maxLineBytes = Math.max(SDK_MAX_BUFFER_BYTES, workspace.bounds.arguments_max_bytes + ENVELOPE_MARGIN_BYTES);
  const input = new OversizeLineFilter(maxLineBytes, (line) => {
    log(`dropped a message of ${line.bytes} bytes (more than ${maxLineBytes})`);
    const answer = oversizeAnswer(line, workspace.bounds.arguments_max_bytes, maxLineBytes);
    if (answer !== undefined) channel.reply(answer);
  });
  await server.connect(channel);
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
