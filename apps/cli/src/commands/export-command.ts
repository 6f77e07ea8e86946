import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportWorkspace } from '@libos/provider-postgres/export';
import { parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { openProvider } from '../workspace/open-workspace.js';
import { WORKSPACE_FLAGS, workspaceOptionsFrom } from '../workspace/workspace-options.js';
import { EXPORT_HELP } from './help-texts.js';

/**
 * `libos export [workspace options] DIR`: the workspace's tree into an empty host directory, from
 * any backend of the table (`--provider`); only the chosen backend's implementation loads.
 */
export async function exportCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos export', () => parseArgs(strictArgs(args, WORKSPACE_FLAGS)));
  if (values.help === true) {
    process.stdout.write(EXPORT_HELP);
    return 0;
  }
  const [target, extra] = positionals;
  if (target === undefined) throw new UsageError('libos export: missing DIR (see `libos export --help`)');
  if (extra !== undefined) throw new UsageError(`libos export: unexpected argument '${extra}'`);
  if (values.config !== undefined || values.objects !== undefined) throw new UsageError('libos export: --config and --objects do not apply');
  const options = workspaceOptionsFrom('libos export', values);
  const directory = resolve(target);
  if ((await readdir(directory).catch(() => [])).length > 0) throw new UsageError(`libos export: ${target} is not empty`);
  const opened = await openProvider(options, undefined, { existingOnly: true });
  if (opened.hostDirectories.some((host) => `${directory}/`.startsWith(`${host}/`))) {
    await opened.close?.();
    throw new UsageError(`libos export: ${target} lies inside the workspace it would copy`);
  }
  try {
    const written = await exportWorkspace(opened.provider, directory);
    process.stdout.write(`${JSON.stringify(written)}\n`);
    return 0;
  } finally {
    await opened.provider.close();
    await opened.close?.();
  }
}
