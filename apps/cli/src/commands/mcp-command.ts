import { parseArgs } from 'node:util';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { createElicitationApprover } from '../mcp/elicitation-approver.js';
import { oversizeAnswer } from '../mcp/oversize-answer.js';
import { OversizeLineFilter } from '../mcp/oversize-line-filter.js';
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
  const workspace = await openWorkspace(options, createElicitationApprover(() => server));
  server = createMcpServer(workspace.runtime.tools, workspace.runtime.spawn(), VERSION, log);

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
  // Stdin EOF does not close the SDK transport, and an over-size message closes it without EOF:
  // both end the session at once so that the client never waits on a dead server.
  process.stdin.once('end', () => void shutdown(0));
  // A broken stdout means the client is gone: end like an EOF, saving the Objects.
  process.stdout.once('error', () => void shutdown(0));
  // A closed terminal (SIGHUP) ends the session like the other signals, saving the Objects.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown(0));
  server.onclose = () => void shutdown(0);
  server.onerror = (error) => log(error.message);

  // A longer line never reaches the transport (whose limit would end the session): the filter
  // drops it and the request is answered here, a tool call with arguments_too_large.
  const maxLineBytes = Math.max(SDK_MAX_BUFFER_BYTES, workspace.bounds.arguments_max_bytes + ENVELOPE_MARGIN_BYTES);
  const input = new OversizeLineFilter(maxLineBytes, (line) => {
    log(`dropped a message of ${line.bytes} bytes (more than ${maxLineBytes})`);
    const answer = oversizeAnswer(line, workspace.bounds.arguments_max_bytes, maxLineBytes);
    if (answer !== undefined) transport.send(answer).catch((error: unknown) => log(`cannot answer: ${String(error)}`));
  });
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: maxLineBytes + 1 });
  process.stdin.pipe(input);
  await server.connect(transport);
  log(`serving ${workspace.runtime.tools.length} tools (${options.provider} provider) on stdio`);
  return undefined;
}
