import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { AUDIT_HELP } from './audit-help.js';
import { showRecords } from './audit-show.js';

const FLAGS = {
  'public-key': { type: 'string' },
  tool: { type: 'string' },
  path: { type: 'string' },
  since: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `libos audit keygen|verify|show`: the person's side of an audit log (docs/audit.md). */
export async function auditCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos audit', () => parseArgs(strictArgs(args, FLAGS)));
  const [action, file] = positionals;
  if (values.help === true || action === 'help') {
    process.stdout.write(AUDIT_HELP);
    return 0;
  }
  if (action !== 'keygen' && action !== 'verify' && action !== 'show') {
    throw new UsageError(
      action === undefined
        ? 'libos audit: missing keygen, verify or show (see `libos audit --help`)'
        : `libos audit: unknown action '${action}' (see \`libos audit --help\`)`,
    );
  }
  const command = `libos audit ${action}`;
  if (file === undefined) throw new UsageError(`${command}: missing ${action === 'keygen' ? 'KEY' : 'FILE'} (see \`libos audit --help\`)`);
  expectPositionals(command, positionals, 2);
  const only = (allowed: readonly (keyof typeof FLAGS)[]) => {
    for (const flag of Object.keys(values) as (keyof typeof FLAGS)[]) {
      if (flag !== 'help' && !allowed.includes(flag)) throw new UsageError(`${command}: --${flag} does not apply here (see \`libos audit --help\`)`);
    }
  };
  const audit = await import('@libos/audit');
  if (action === 'keygen') {
    only([]);
    let written: { privateKey: string; publicKey: string };
    try {
      written = audit.writeSigningKeyPair(file);
    } catch (error) {
      throw new Error(
        `${command}: cannot write ${file}: ${(error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it already exists' : messageOf(error)}`,
      );
    }
    process.stdout.write(`${JSON.stringify({ private_key: written.privateKey, public_key: written.publicKey })}\n`);
    return 0;
  }
  if (action === 'verify') {
    only(['public-key']);
    const keyFile = values['public-key'];
    let publicKey: string | undefined;
    if (keyFile !== undefined) {
      try {
        publicKey = readFileSync(keyFile, 'utf8');
      } catch (error) {
        throw new UsageError(`${command}: --public-key ${keyFile}: ${messageOf(error)}`);
      }
    }
    let result: ReturnType<typeof audit.verify>;
    try {
      result = audit.verify(file, publicKey === undefined ? {} : { publicKey });
    } catch (error) {
      throw new UsageError(`${command}: ${file}: ${messageOf(error)}`);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.ok ? 0 : 1;
  }
  only(['tool', 'path', 'since', 'json']);
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since))) {
    throw new UsageError(`${command}: --since must be a time such as 2026-12-01T20:00:00Z, not '${values.since}'`);
  }
  showRecords(audit.readRecords, file, {
    ...(values.tool === undefined ? {} : { tool: values.tool }),
    ...(values.path === undefined ? {} : { path: values.path }),
    ...(values.since === undefined ? {} : { since: values.since }),
    json: values.json === true,
  });
  return 0;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
