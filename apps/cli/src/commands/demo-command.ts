import { mkdir, symlink, lstat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import type { ToolCaller } from '@libos/tools';
import { DEMO_HELP } from './help-texts.js';

interface TourStep {
  readonly note: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

const NOTES = '# Notes\n\nWritten by the libos demo through write_text_file.\n';

/** The tour: every step is one tool call; the last ones show refusals. */
const TOUR: readonly TourStep[] = [
  { note: 'A new process starts at the workspace root.', tool: 'get_working_directory', args: {} },
  { note: 'Create a directory (missing parents too).', tool: 'write_directory', args: { path: 'docs' } },
  { note: 'Write a file; replacement is atomic.', tool: 'write_text_file', args: { path: 'docs/notes.md', content: NOTES } },
  { note: 'List the root: one level, sorted by name.', tool: 'read_directory', args: { path: '.' } },
  { note: 'Read it back, with the SHA-256 of the whole file.', tool: 'read_text_file', args: { path: 'docs/notes.md' } },
  { note: 'Move this process into docs; paths are now relative to it.', tool: 'set_working_directory', args: { path: 'docs' } },
  {
    note: 'Import the file into an immutable Object in the process namespace.',
    tool: 'create_object_from_file',
    args: { name: 'notes', path: 'notes.md' },
  },
  { note: 'Export the Object to a new file.', tool: 'write_object_to_file', args: { name: 'notes', path: 'notes-copy.md' } },
  { note: 'Outputs name files by their identity from the root.', tool: 'read_directory', args: { path: '' } },
  {
    note: 'Refused: "escape" is a symlink pointing outside the workspace; links are never followed.',
    tool: 'read_text_file',
    args: { path: '../escape/anything.txt' },
  },
  { note: 'Refused: .git and its aliases are protected.', tool: 'write_text_file', args: { path: '../.GIT/config', content: 'x' } },
  { note: 'Refused: a path above the root.', tool: 'read_text_file', args: { path: '../../outside.txt' } },
  { note: 'Delete the exported copy.', tool: 'delete_file', args: { path: 'notes-copy.md' } },
];

/** `libos demo [DIR]`: a printed tour of the tools on a local workspace with in-memory Objects. */
export async function demoCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos demo', () => parseArgs(strictArgs(args, { help: { type: 'boolean', short: 'h' } })));
  if (values.help === true) {
    process.stdout.write(DEMO_HELP);
    return 0;
  }
  expectPositionals('libos demo', positionals, 1);
  const root = resolve(positionals[0] ?? 'demo-workspace');
  await prepareWorkspace(root).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`libos demo: cannot use ${root} as the demo workspace: ${reason}`);
  });
  const write = (text: string) => void process.stdout.write(text);
  write(`libos demo: workspace ${root} (local disk), Objects in memory\n`);
  const workspace = await openWorkspace({ provider: 'local', root });
  try {
    const agent = workspace.runtime.spawn();
    for (const [index, step] of TOUR.entries()) await runStep(agent, step, index + 1, write);
  } finally {
    await workspace.close();
  }
  write(`\nExplore it yourself: ${shellCommandLine(root, process.env)}\n`);
  return 0;
}

async function runStep(agent: Pick<ToolCaller, 'call'>, step: TourStep, number: number, write: (text: string) => void): Promise<void> {
  write(`\n${number}. ${step.note}\n   call   ${step.tool} ${JSON.stringify(step.args)}\n`);
  const outcome = await agent.call(step.tool, step.args);
  const shown = outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: outcome.error };
  write(`   result ${JSON.stringify(shown)}\n`);
}

/**
 * The command that opens a shell on `root`, as it works pasted where the demo ran: `libos` is on the
 * PATH only for a global install, so under pnpm (`pnpm demo` in a clone) it is `pnpm exec libos`, and
 * under npm (`npx @libos/cli demo`) `npx -y @libos/cli`. The root is quoted for a POSIX shell.
 */
export function shellCommandLine(root: string, environment: Readonly<Record<string, string | undefined>>): string {
  const agent = environment.npm_config_user_agent ?? '';
  const libos = agent.startsWith('pnpm/') ? 'pnpm exec libos' : agent.startsWith('npm/') ? 'npx -y @libos/cli' : 'libos';
  const quoted = /^[\w./-]+$/u.test(root) ? root : `'${root.replaceAll("'", "'\\''")}'`;
  return `${libos} shell --root ${quoted}`;
}

/** The demo's fixture: the workspace directory and a symlink that points out of it. */
async function prepareWorkspace(root: string): Promise<void> {
  await mkdir(root, { recursive: true });
  const link = join(root, 'escape');
  const present = await lstat(link).catch(() => undefined);
  if (present === undefined) await symlink(tmpdir(), link);
}
