import { parseArgs } from 'node:util';
import { auditCalls, startReviewServer } from '@libos/review';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { openPersonOverlay } from '../workspace/open-person-overlay.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { REVIEW_HELP } from './overlay-help.js';

const FLAGS = { ...WORKSPACE_FLAGS, listen: { type: 'string' }, approvals: { type: 'string' } } as const;

/**
 * `libos review`: serves the review page (docs/overlay.md) over the same operations the `libos
 * apply` family runs, prints its address with the one-time token, and runs until SIGINT or SIGTERM.
 */
export async function reviewCommand(args: readonly string[]): Promise<number | undefined> {
  const { values, positionals } = parseCommandLine('libos review', () => parseArgs(strictArgs(args, FLAGS)));
  if (values.help === true) {
    process.stdout.write(REVIEW_HELP);
    return 0;
  }
  expectPositionals('libos review', positionals, 0);
  const { host, port } = listenOf(values.listen ?? '127.0.0.1:0');
  const options = workspaceOptionsFrom('libos review', values);
  // --approvals DIR: the calls waiting there are listed and answered on the page (loaded only then);
  // with it alone (no --overlay) the page answers approvals only.
  const approvals = values.approvals === undefined ? undefined : await openApprovals(values.approvals);
  const opened = approvals !== undefined && values.overlay === undefined ? undefined : await openPersonOverlay('libos review', options);
  const auditFile = options.audit?.file;
  const server = await startReviewServer({
    ...(opened === undefined ? {} : { operations: opened.operations }),
    ...(approvals === undefined ? {} : { approvals }),
    host,
    port,
    ...(auditFile === undefined ? {} : { calls: auditCalls(auditFile) }),
  }).catch(async (error: unknown) => {
    await opened?.close();
    throw new UsageError(`libos review: cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  });
  process.stderr.write(`libos review: open this address in a browser (the token in it is for this run only); Ctrl-C ends\n`);
  process.stdout.write(`${server.url}\n`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    await opened?.close();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void shutdown());
  return undefined;
}

function listenOf(value: string): { host: string; port: number } {
  const match = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]):(\d{1,5})$/u.exec(value);
  const port = match === null ? Number.NaN : Number(match[2]);
  if (match === null || port > 65535) {
    throw new UsageError(`libos review: --listen takes a loopback HOST:PORT (127.0.0.1:8790, or port 0 for any), not '${value}'`);
  }
  return { host: match[1] === '[::1]' ? '::1' : match[1]!, port };
}

/** The person's side of `--approvals DIR`: never created here (the agent's server creates it). */
async function openApprovals(path: string) {
  const { ApprovalDirectory } = await import('@libos/tools');
  return ApprovalDirectory.open(path, { create: false }).catch((error: unknown) => {
    throw new UsageError(`libos review: --approvals ${error instanceof Error ? error.message : String(error)}`);
  });
}
