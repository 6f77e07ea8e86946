import { appendFile, readFile } from 'node:fs/promises';
import { createInterface, type Interface } from 'node:readline';
import { parseArgs } from 'node:util';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { clearLineOnInterrupt } from '../shell/clear-line-on-interrupt.js';
import { ShellSession } from '../shell/shell-session.js';
import { askOn } from '../shell/terminal-approver.js';
import { APPROVAL_CHANNELS } from '../workspace/approval-channels.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { SHELL_HELP } from './help-texts.js';

const HISTORY_SIZE = 500;

/**
 * `libos shell`: one process, commands from stdin (a terminal or a pipe) until `exit` or end of
 * input. Fed a script (not a terminal), it exits 1 if any command failed.
 */
export async function shellCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos shell', () =>
    parseArgs(
      strictArgs(args, {
        ...WORKSPACE_FLAGS,
        history: { type: 'string' },
      }),
    ),
  );
  if (values.help === true) {
    process.stdout.write(SHELL_HELP);
    return 0;
  }
  expectPositionals('libos shell', positionals, 0);
  const interactive = process.stdin.isTTY === true;
  // The person at the terminal answers `ask` grants on the shell's own input; a script cannot.
  let lines: Interface | undefined;
  const approver = await APPROVAL_CHANNELS.terminal.create({
    interactive,
    ask: (prompt, signal) => (lines === undefined ? Promise.resolve(undefined) : askOn(lines, prompt, signal)),
  });
  const workspace = await openWorkspace(workspaceOptionsFrom('libos shell', values), approver);
  const write = (text: string) => void process.stdout.write(text);
  const session = new ShellSession(
    workspace.runtime.spawn(),
    workspace.runtime.tools.map((tool) => tool.name),
    write,
  );
  const historyFile = interactive ? values.history : undefined;
  lines = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    historySize: HISTORY_SIZE,
    history: historyFile === undefined ? [] : await readHistory(historyFile),
  });
  if (interactive) clearLineOnInterrupt(lines, session, write);
  if (interactive) write(`libos shell on ${workspace.runtime.tools.length} tools; type \`help\` for commands, \`exit\` to leave\n`);
  try {
    lines.setPrompt(session.prompt);
    if (interactive) lines.prompt();
    for await (const line of lines) {
      if (historyFile !== undefined && line.trim() !== '') await appendFile(historyFile, `${line}\n`).catch(() => {});
      if ((await session.handleLine(line)) === 'exit') break;
      if (interactive) {
        lines.setPrompt(session.prompt);
        lines.prompt();
      }
    }
    session.finish();
  } finally {
    lines.close();
    await workspace.close();
  }
  // A script, like `sh -e` would report it: any failed command fails the run.
  return !interactive && session.failed ? 1 : 0;
}

async function readHistory(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  // readline keeps the newest line first.
  return text
    .split('\n')
    .filter((line) => line !== '')
    .slice(-HISTORY_SIZE)
    .reverse();
}
