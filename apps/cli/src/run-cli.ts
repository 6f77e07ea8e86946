import { MAIN_HELP } from './commands/help-texts.js';
import { USAGE_EXIT_STATUS, UsageError } from './usage-error.js';
import { VERSION } from './version.js';

/** A command that could not finish (not a tool failure, which `libos call` reports itself). */
const FAILURE_EXIT_STATUS = 1;

type Command = (args: readonly string[]) => Promise<number | undefined>;

// Loaded on demand: `libos mcp` should not pay for the shell, nor `--help` for the SDK.
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  mcp: async () => (await import('./commands/mcp-command.js')).mcpCommand,
  serve: async () => (await import('./commands/serve-command.js')).serveCommand,
  call: async () => (await import('./commands/call-command.js')).callCommand,
  tools: async () => (await import('./commands/tools-command.js')).toolsCommand,
  shell: async () => (await import('./commands/shell-command.js')).shellCommand,
  demo: async () => (await import('./commands/demo-command.js')).demoCommand,
  audit: async () => (await import('./commands/audit-command.js')).auditCommand,
  // The person's side of `--overlay` (docs/overlay.md): changes, diff, apply, undo-apply, ...
  ...Object.fromEntries(
    ['changes', 'diff', 'apply', 'undo-apply', 'discard', 'history', 'rewind', 'fork'].map((name) => [
      name,
      async () => {
        const { overlayCommand } = await import('./commands/overlay-commands.js');
        return (args: readonly string[]) => overlayCommand(name, args);
      },
    ]),
  ),
  export: async () => (await import('./commands/export-command.js')).exportCommand,
  review: async () => (await import('./commands/review-command.js')).reviewCommand,
  approvals: async () => (await import('./commands/approvals-command.js')).approvalsCommand,
};

/**
 * Runs one `libos` command line. Returns the exit status, or undefined while a long-running
 * command (the MCP server) keeps the process alive and exits by itself.
 */
export async function runCli(args: readonly string[]): Promise<number | undefined> {
  const [name, ...rest] = args;
  process.stdout.on('error', ignoreClosedReader);
  try {
    if (name === undefined) {
      // No command is a usage error (a script that forgot it must not pass): the help, on stderr.
      process.stderr.write(MAIN_HELP);
      return USAGE_EXIT_STATUS;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      process.stdout.write(MAIN_HELP);
      return 0;
    }
    if (name === '--version' || name === '-v') {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (load === undefined) {
      throw new UsageError(
        name.startsWith('-') ? `libos: unknown option '${name}' (see \`libos --help\`)` : `libos: unknown command '${name}' (see \`libos --help\`)`,
      );
    }
    return await (await load())(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message.replace(/\s*\n\s*/gu, ' ')}\n`);
      return USAGE_EXIT_STATUS;
    }
    // Past start-up (a checkpoint that cannot be saved, a disk that fails): one line, no stack trace.
    const text = error instanceof Error ? error.message : String(error);
    process.stderr.write(`libos: ${text.replace(/\s*\n\s*/gu, ' ')}\n`);
    return FAILURE_EXIT_STATUS;
  }
}

/**
 * A reader that goes away (`libos shell < script | head -1`) is the reader's choice, not a failure:
 * the rest of the output is dropped and the command ends as it would have. Without a listener,
 * Node turns the broken pipe into a crash with a stack trace.
 */
function ignoreClosedReader(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  process.stderr.write(`libos: cannot write the output: ${error.message}\n`);
  process.exitCode = 1;
}
