import { parseArgs } from 'node:util';
import { serveHttp } from '@libos/mcp';
import { httpOptionsFrom } from '../http/http-options.js';
import { checkFleetPolicy, openFleetState, withStateOption, type FleetState } from '../http/state-option.js';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { VERSION } from '../version.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { BACKEND_REGISTRY } from '../workspace/backend-registry.js';
import { APPROVALS_FLAGS, approvalsOptionsFrom } from '../workspace/approvals-options.js';
import { mcpApprover } from '../workspace/mcp-approver.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { SERVE_HELP } from './help-texts.js';

const SERVE_FLAGS = {
  ...WORKSPACE_FLAGS,
  http: { type: 'string' },
  'token-file': { type: 'string' },
  'session-idle-seconds': { type: 'string' },
  'max-sessions': { type: 'string' },
  'drain-seconds': { type: 'string' },
  'auth-timeout-seconds': { type: 'string' },
  'single-user': { type: 'boolean' },
  state: { type: 'string' },
  ...APPROVALS_FLAGS,
} as const;

/** The start-up line's word on who may connect. */
const ACCESS_NOTES = {
  file: () => ' (bearer token required: the one in --token-file)',
  environment: () => ' (bearer token required: LIBOS_TOKEN)',
  // Only this process's user reads its stderr; every local user can reach loopback.
  generated: (token: string) => ` (bearer token required, generated for this run: ${token})`,
  none: () => ' without a token (--single-user: no other local user can connect to this machine)',
} as const;

function log(line: string): void {
  process.stderr.write(`libos serve: ${line}\n`);
}

/** `libos serve --http HOST:PORT`: serves the tools over MCP Streamable HTTP until SIGTERM or SIGINT. */
export async function serveCommand(args: readonly string[]): Promise<number | undefined> {
  const { values, positionals } = parseCommandLine('libos serve', () => parseArgs(strictArgs(args, SERVE_FLAGS)));
  if (values.help === true) {
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  expectPositionals('libos serve', positionals, 0);
  // A server for other hosts never guesses its directory: no current-directory default, no roots.
  const pendingOptions = approvalsOptionsFrom('libos serve', values);
  const workspaceOptions = withStateOption('libos serve', values.state, {
    ...workspaceOptionsFrom('libos serve', values),
    borrowWorkingDirectory: true,
    ...(pendingOptions === undefined ? {} : { approvalsDirectory: pendingOptions.directory }),
  });
  if (
    BACKEND_REGISTRY.provider(workspaceOptions.provider)?.servesRoot === true &&
    values.root === undefined &&
    workspaceOptions.mounts === undefined
  ) {
    throw new UsageError(
      `libos serve: --root DIR (or --mount NAME=DIR) is required with the ${workspaceOptions.provider} provider (the directory to serve)`,
    );
  }
  const httpOptions = await httpOptionsFrom('libos serve', values, process.env);

  // One runtime serves every session; an approval goes to the client of the session asking.
  // With --approvals, a client without elicitation waits in that directory for the person.
  const { approver, openPending } = await mcpApprover(pendingOptions, log);
  const workspace = await openWorkspace(workspaceOptions, approver);
  await openPending().catch(async (error: unknown) => {
    await workspace.close();
    throw error;
  });
  // Stateless (2026-07-28) callers name their process by a handle; with --state every instance on the database serves it.
  let state: FleetState | undefined;
  const processes = await (async () => {
    if (values.state === undefined) return workspace.runtime.openProcessTable({ idleMs: httpOptions.sessionIdleMs, log });
    checkFleetPolicy('libos serve', workspace.runtime.config);
    state = await openFleetState('libos serve', values.state);
    return workspace.runtime.openProcessTable({ store: state.processes, idleMs: httpOptions.sessionIdleMs, log });
  })().catch(async (error: unknown) => {
    await workspace.close();
    throw error;
  });
  // Every instance on the database seals approvals with one key and uses each requestState once.
  const approvals = state === undefined ? {} : { approvals: { key: state.approvals.key, store: state.approvals.store } };
  const server = await serveHttp(workspace.runtime, { ...httpOptions, log, version: VERSION, processes, ...approvals }).catch(
    async (error: NodeJS.ErrnoException) => {
      await workspace.close();
      throw new UsageError(`libos serve: cannot listen on ${values.http}: ${error.code ?? error.message}`);
    },
  );
  log(
    `serving ${workspace.runtime.tools.length} tools (${workspaceOptions.provider} provider, ${workspace.served}) on ${server.url}` +
      ACCESS_NOTES[httpOptions.tokenSource](httpOptions.token ?? ''),
  );

  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    let status = 0;
    try {
      // Drain: every call already taken is answered before the sessions and the runtime end.
      await server.close();
      await workspace.close();
      await state?.close();
    } catch (error) {
      log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      status = 1;
    }
    process.exit(status);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown());
  return undefined;
}
