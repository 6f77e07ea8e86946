import { parseArgs } from 'node:util';
import { escapeForDisplay, type Approver } from '@libos/core';
import { clientRoot, serveStdio, type StdioSession } from '@libos/mcp';
import { describeTools } from '@libos/tools';
import { createDeferredProcess } from '../mcp/deferred-process.js';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { USAGE_EXIT_STATUS } from '../usage-error.js';
import { VERSION } from '../version.js';
import { BACKEND_REGISTRY } from '../workspace/backend-registry.js';
import { openWorkspace, readConfig, type OpenWorkspace } from '../workspace/open-workspace.js';
import { APPROVALS_FLAGS, approvalsOptionsFrom } from '../workspace/approvals-options.js';
import { mcpApprover } from '../workspace/mcp-approver.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom, type WorkspaceOptions } from '../workspace/workspace-options.js';
import { MCP_HELP } from './help-texts.js';

function log(line: string): void {
  process.stderr.write(`libos mcp: ${line}\n`);
}

/** `libos mcp`: serves one session over stdio until stdin closes, then exits 0. */
export async function mcpCommand(args: readonly string[]): Promise<number | undefined> {
  const { values, positionals } = parseCommandLine('libos mcp', () => parseArgs(strictArgs(args, { ...WORKSPACE_FLAGS, ...APPROVALS_FLAGS })));
  if (values.help === true) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  expectPositionals('libos mcp', positionals, 0);
  const approvals = approvalsOptionsFrom('libos mcp', values);
  const options: WorkspaceOptions = {
    ...workspaceOptionsFrom('libos mcp', values),
    borrowWorkingDirectory: true,
    ...(approvals === undefined ? {} : { approvalsDirectory: approvals.directory }),
  };
  // Without --root the client's MCP roots choose the directory, never the launch directory.
  const fromRoots = BACKEND_REGISTRY.provider(options.provider)?.servesRoot === true && values.root === undefined && options.mounts === undefined;

  // --approvals: a client without elicitation gets its answer from the pending directory.
  const { approver, openPending } = await mcpApprover(approvals, log);
  // With roots, only the config is known before `initialize`: the tool list comes from it alone.
  let workspace: OpenWorkspace | undefined = fromRoots ? undefined : await openWorkspace(options, approver);
  if (workspace !== undefined) {
    const opened = workspace;
    await openPending().catch(async (error: unknown) => {
      await opened.close();
      throw error;
    });
  }
  const runtime = workspace?.runtime ?? describeTools(options.configFile === undefined ? {} : { config: await readConfig(options.configFile) });
  const deferred = createDeferredProcess();
  if (workspace !== undefined) deferred.resolve(workspace.runtime.spawn());
  const session: StdioSession = await serveStdio(
    { tools: runtime.tools, bounds: runtime.bounds, spawn: () => deferred.process },
    { process: deferred.process, log, version: VERSION },
  );
  const { server } = session;
  const { tools } = runtime;

  let closing = false;
  const shutdown = async (status: number): Promise<void> => {
    if (closing) return;
    closing = true;
    try {
      await session.close();
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

  // Logged once the signal handlers are in place: a launcher may signal as soon as it reads this.
  if (fromRoots) {
    log("no --root: waiting for the client's MCP roots (local provider)");
    server.oninitialized = () => {
      void serveClientRoot(server, options, approver, openPending).then(
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
          void session.drained().then(() => shutdown(USAGE_EXIT_STATUS));
        },
      );
    };
  } else {
    log(`serving ${workspace!.served} (${options.provider} provider, ${tools.length} tools) on stdio`);
  }
  // End of input: every request already read is answered and written before the session ends.
  session.finished.then(
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
  server: StdioSession['server'],
  options: WorkspaceOptions,
  approver: Approver,
  openPending: () => Promise<void>,
): Promise<OpenWorkspace & { root: string }> {
  const root = await clientRoot(server);
  if ('refusal' in root) throw new Error(root.refusal);
  try {
    const opened = await openWorkspace({ ...options, root: root.directory }, approver);
    await openPending().catch(async (error: unknown) => {
      await opened.close();
      throw error;
    });
    return { ...opened, root: root.directory };
  } catch (error) {
    throw new Error(
      `the client's root ${escapeForDisplay(root.directory)} cannot be served (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
}
