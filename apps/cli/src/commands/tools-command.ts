import { parseArgs } from 'node:util';
import { expectPositionals, parseCommandLine, strictArgs } from '../parse-command-line.js';
import { UsageError } from '../usage-error.js';
import { openWorkspace } from '../workspace/open-workspace.js';
import { TOOLS_HELP } from './help-texts.js';
import { TOOL_FORMATS, formatTools, type ToolFormat } from './tool-formats.js';

/** `libos tools`: every tool's schema as JSON, in the shape one ecosystem takes. */
export async function toolsCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine('libos tools', () =>
    parseArgs(
      strictArgs(args, {
        format: { type: 'string', short: 'f' },
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      }),
    ),
  );
  if (values.help === true) {
    process.stdout.write(TOOLS_HELP);
    return 0;
  }
  expectPositionals('libos tools', positionals, 0);
  const format = values.format ?? 'mcp';
  if (!(TOOL_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`libos tools: --format must be one of ${TOOL_FORMATS.join(', ')}, not '${format}'`);
  }
  // Schemas depend only on the bounds, so an empty in-memory workspace is enough.
  const workspace = await openWorkspace({
    provider: 'memfs',
    root: process.cwd(),
    ...(values.config === undefined ? {} : { configFile: values.config }),
  });
  try {
    process.stdout.write(`${JSON.stringify(formatTools(workspace.runtime.tools, format as ToolFormat), null, 2)}\n`);
    return 0;
  } finally {
    await workspace.close();
  }
}
