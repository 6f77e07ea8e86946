import { LibosError } from '@libos/core';
import type { ToolSummary } from './tool-summary.js';

/** The tools that answer with the process beside the working directory. */
export const WORKING_DIRECTORY_TOOLS: ReadonlySet<string> = new Set(['get_working_directory', 'set_working_directory']);

const PROCESS_INPUT = {
  type: 'string',
  description:
    'The handle of your process, as set_working_directory returned it: the call runs in that process (its working ' +
    'directory, its own Object namespace). Without it the call runs in a new process of its own whose working directory is ".".',
};

const PROCESS_OUTPUT = { type: 'string', description: 'The handle of the process: pass it as `process` to every later call.' };

const MINT_NOTE =
  ' Without `process`, starts a new process there and returns its handle as `process`; pass it to every later call, ' +
  'which then runs in that directory. A handle unused for the idle time expires.';

/**
 * The tools as a caller without a session sees them (docs/mcp.md): every input takes an optional
 * `process`, and the working-directory tools answer with it. Throws `invalid_arguments` when a tool
 * of the runtime already has an argument named `process`, which the handle would shadow.
 */
export function toolsWithProcess(summaries: readonly ToolSummary[]): readonly ToolSummary[] {
  return summaries.map((summary) => {
    const properties = (summary.inputSchema.properties ?? {}) as Record<string, unknown>;
    if (Object.hasOwn(properties, 'process')) {
      throw new LibosError('invalid_arguments', `The tool "${summary.name}" has an argument named process, which a process handle needs.`, {
        details: { tool: summary.name },
      });
    }
    const inputSchema = { ...summary.inputSchema, properties: { ...properties, process: PROCESS_INPUT } };
    if (!WORKING_DIRECTORY_TOOLS.has(summary.name)) return { ...summary, inputSchema };
    const output = summary.outputSchema;
    const required = Array.isArray(output.required) ? (output.required as string[]) : [];
    // get_working_directory without a handle runs in a process that ends with the call: no handle to give.
    const outputSchema = {
      ...output,
      properties: { ...(output.properties as Record<string, unknown>), process: PROCESS_OUTPUT },
      required: summary.name === 'set_working_directory' ? [...required, 'process'] : required,
    };
    const description = summary.name === 'set_working_directory' ? summary.description + MINT_NOTE : summary.description;
    return { ...summary, description, inputSchema, outputSchema };
  });
}
