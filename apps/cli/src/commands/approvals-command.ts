import { parseArgs } from 'node:util';
import { escapeForDisplay, LibosError } from '@libos/core';
import { ApprovalDirectory, type PendingApproval } from '@libos/tools';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';

const FLAGS = { approvals: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export const APPROVALS_HELP = `Usage: libos approvals list|approve ID|reject ID --approvals DIR [--json]

The person's side of \`libos mcp|serve --approvals DIR\`: calls whose MCP client has no elicitation
wait in DIR for an answer (docs/mcp.md, "Pending approvals"). Each request shows the same text an
elicitation would (names and content escaped, \\u{202E}), bound to that one call: its tool, right,
path, byte count and SHA-256. An answer approves or rejects that call only; the next call asks again.

  list         Print the requests still waiting, oldest first (exit 0, also when there are none)
  approve ID   Let the call waiting on ID proceed (exit 0; 1 when no call waits on ID any more,
               or ID was already answered: the first answer stands)
  reject ID    Fail that call with approval_rejected (same exit statuses)

  --approvals DIR   The directory the server was started with (required; never created here)
  --json            list: print the requests as JSON
  -h, --help        Show this help
`;

/** `libos approvals list|approve|reject`: answers the calls waiting in `--approvals DIR`. */
export async function approvalsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos approvals', () => parseArgs(strictArgs(args, FLAGS)));
  const [action, id] = positionals;
  if (values.help === true || action === 'help') {
    process.stdout.write(APPROVALS_HELP);
    return 0;
  }
  if (action !== 'list' && action !== 'approve' && action !== 'reject') {
    const said = action === undefined ? 'missing list, approve or reject' : `unknown action '${escapeForDisplay(action)}'`;
    throw new UsageError(`libos approvals: ${said} (see \`libos approvals --help\`)`);
  }
  const command = `libos approvals ${action}`;
  expectPositionals(command, positionals, action === 'list' ? 1 : 2);
  if (action !== 'list' && id === undefined) throw new UsageError(`${command}: missing ID (see \`libos approvals list\`)`);
  if (values.approvals === undefined) throw new UsageError(`${command}: --approvals DIR is required (the directory the server was given)`);
  if (values.json === true && action !== 'list') throw new UsageError(`${command}: --json applies to list only`);
  const directory = await ApprovalDirectory.open(values.approvals, { create: false }).catch((error: unknown) => {
    throw new UsageError(`${command}: --approvals ${error instanceof Error ? error.message : String(error)}`);
  });
  if (action === 'list') {
    const pending = await directory.list();
    process.stdout.write(values.json === true ? `${JSON.stringify({ pending }, null, 2)}\n` : listing(pending, directory.path));
    return 0;
  }
  try {
    const answered = await directory.answer(id!, action);
    process.stdout.write(`${action === 'approve' ? 'Approved' : 'Rejected'} ${answered.id}: ${shown(answered.request.message).split('\n')[0]}\n`);
    return 0;
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    process.stderr.write(`${command}: ${error.message}\n`);
    return 1;
  }
}

/** The requests for a person to read: each one's id, deadline and the very text an elicitation shows. */
function listing(pending: readonly PendingApproval[], path: string): string {
  if (pending.length === 0) return `No call waits for approval in ${escapeForDisplay(path)}.\n`;
  const now = Date.now();
  const blocks = pending.map((entry) => {
    const left = Math.max(0, Math.round((Date.parse(entry.expires_at) - now) / 1000));
    const lines = shown(entry.request.message)
      .split('\n')
      .map((line) => `    ${line}`);
    return [`${entry.id}  waits until ${entry.expires_at} (${left} s left)`, ...lines].join('\n');
  });
  const answer = 'Answer with: libos approvals approve ID --approvals DIR (or reject ID)';
  return `${pending.length} ${pending.length === 1 ? 'call waits' : 'calls wait'} for approval:\n\n${blocks.join('\n\n')}\n\n${answer}\n`;
}

/**
 * The request's text, escaped once more for the terminal: a request is the server's own text,
 * already escaped, so this changes nothing unless someone else wrote the file (never trusted raw).
 */
function shown(message: string): string {
  return escapeForDisplay(message, { multiline: true }).replaceAll('\t', '\\t');
}
