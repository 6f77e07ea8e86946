import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { escapeForDisplay, type Approver } from '@libos/core';
import { maxMessageBytes } from '../mcp/channel-limits.js';
import { clientRoot } from '../mcp/client-root.js';
import { createDeferredProcess } from '../mcp/deferred-process.js';
import { createElicitationApprover } from '../mcp/elicitation-approver.js';
import { openMcpSession, type McpSession } from '../mcp/open-mcp-session.js';
import { oversizeAnswer } from '../mcp/oversize-answer.js';
import { OversizeLineFilter } from '../mcp/oversize-line-filter.js';
import { serveLines, streamSink } from '../mcp/serve-stdio.js';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { USAGE_EXIT_STATUS } from '../usage-error.js';
import { openWorkspace, type OpenWorkspace } from '../workspace/open-workspace.js';
import { BACKEND_REGISTRY } from '../workspace/backend-registry.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom, type WorkspaceOptions } from '../workspace/workspace-options.js';
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
  const options: WorkspaceOptions = { ...workspaceOptionsFrom('libos mcp', values), borrowWorkingDirectory: true };
  // Without --root the client's MCP roots choose the directory, never the launch directory.
  const fromRoots = BACKEND_REGISTRY.provider(options.provider)?.servesRoot === true && values.root === undefined;

  let mcp: McpSession | undefined;
  const approver = createElicitationApprover(() => mcp?.server);
  // With roots, only the config is known before `initialize`: the tool list comes from it alone.
  let workspace: OpenWorkspace | undefined = fromRoots ? undefined : await openWorkspace(options, approver);
  const listing =
    workspace ??
    (await openWorkspace({ provider: 'memfs', root: options.root, ...(options.configFile === undefined ? {} : { configFile: options.configFile }) }));
  const { tools, bounds } = { tools: listing.runtime.tools, bounds: listing.bounds };
  if (fromRoots) await listing.close();
  const deferred = createDeferredProcess();
  if (workspace !== undefined) deferred.resolve(workspace.runtime.spawn());
  mcp = await openMcpSession({ tools, process: deferred.process, sink: streamSink(process.stdout), log });
  const { channel, server } = mcp;

  let closing = false;
  const shutdown = async (status: number): Promise<void> => {
    if (closing) return;
    closing = true;
    try {
      await server.close();
      // The session's process ends with the session: its namespace and Objects are dropped.
      await deferred.process.end?.();
      await workspace?.close();
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
  const maxLineBytes = maxMessageBytes(bounds.arguments_max_bytes);
  const input = new OversizeLineFilter(maxLineBytes, (line) => {
    log(`dropped a message of ${line.bytes} bytes (more than ${maxLineBytes})`);
    const answer = oversizeAnswer(line, bounds.arguments_max_bytes, maxLineBytes);
    if (answer !== undefined) channel.reply(answer);
  });
  process.stdin.pipe(input);
  // Logged once the signal handlers are in place: a launcher may signal as soon as it reads this.
  if (fromRoots) {
    log("no --root: waiting for the client's MCP roots (local provider)");
    server.oninitialized = () => {
      void serveClientRoot(server, options, approver).then(
        (opened) => {
          workspace = opened;
          deferred.resolve(opened.runtime.spawn());
          log(`serving ${opened.served} (${options.provider} provider, the client's MCP root, ${tools.length} tools) on stdio`);
        },
        (error: unknown) => {
          // Refused: every call gets the sentence, then the server ends as for a bad flag.
          const message = `libos mcp serves no workspace: ${error instanceof Error ? error.message : String(error)}; pass --root DIR to choose one.`;
          log(message);
          deferred.refuse(message);
          void channel.drained().then(() => shutdown(USAGE_EXIT_STATUS));
        },
      );
    };
  } else {
    log(`serving ${workspace!.served} (${options.provider} provider, ${tools.length} tools) on stdio`);
  }
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

/** The workspace the client's one `file://` root names, opened like `--root` would open it. */
async function serveClientRoot(
  server: McpSession['server'],
  options: WorkspaceOptions,
  approver: Approver,
): Promise<OpenWorkspace & { root: string }> {
  const root = await clientRoot(server);
  if ('refusal' in root) throw new Error(root.refusal);
  try {
    return { ...(await openWorkspace({ ...options, root: root.directory }, approver)), root: root.directory };
  } catch (error) {
    throw new Error(
      `the client's root ${escapeForDisplay(root.directory)} cannot be served (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}
