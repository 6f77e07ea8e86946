import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseCommandLine, strictArgs } from '../parse-command-line.js';
import { askOn } from '../shell/terminal-approver.js';
import { APPROVAL_CHANNELS } from '../workspace/approval-channels.js';
import { UsageError } from '../usage-error.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { CALL_HELP } from './help-texts.js';

/** `libos call TOOL [ARGS_JSON]`: one call, its JSON on stdout; 0 on success, 1 on a tool failure. */
export async function callCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos call', () =>
    parseArgs(strictArgs(args, { ...WORKSPACE_FLAGS, approve: { type: 'boolean' } })),
  );
  if (values.help === true) {
    process.stdout.write(CALL_HELP);
    return 0;
  }
  const [tool, argumentsJson, extra] = positionals;
  if (tool === undefined) throw new UsageError('libos call: missing TOOL (see `libos call --help`)');
  if (extra !== undefined) throw new UsageError(`libos call: unexpected argument '${extra}'; quote ARGS_JSON as one argument`);
  const toolArguments = parseArgumentsJson(argumentsJson);
  // --approve: the person at the terminal answers `ask` grants (the question on stderr, so stdout stays
  // the call's JSON); without a terminal, or without the flag, they fail with approval_required.
  const approver =
    values.approve === true ? await APPROVAL_CHANNELS.terminal.create({ interactive: process.stdin.isTTY === true, ask: askOnTerminal }) : undefined;
  const workspace = await openWorkspace(workspaceOptionsFrom('libos call', values), approver);
  try {
    const outcome = await workspace.runtime.spawn().call(tool, toolArguments);
    // The runtime's failure is already the shape every app prints (`details` always present).
    const printed = outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
    process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
    return outcome.ok ? 0 : 1;
  } finally {
    await workspace.close();
  }
}

async function askOnTerminal(prompt: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await askOn(lines, prompt, signal);
  } finally {
    lines.close();
  }
}

function parseArgumentsJson(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    // Any JSON value goes through: the runtime itself answers a non-object with invalid_arguments.
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`libos call: ARGS_JSON is not valid JSON: ${reason}`);
  }
}
