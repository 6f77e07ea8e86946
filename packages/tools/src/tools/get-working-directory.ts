import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { identityField } from './tool-fields.js';

/** `get_working_directory`: reports the process working directory. */
export const getWorkingDirectory = defineTool({
  name: 'get_working_directory',
  title: 'Get working directory',
  description:
    'Returns the working directory of this process as a path relative to the workspace root ("." is the root). ' +
    'Relative paths given to the other tools are resolved against it. Takes no arguments and touches no files.',
  inputSchema: () => z.strictObject({}),
  outputSchema: z.strictObject({ working_directory: identityField }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(_input, context) {
    return { working_directory: context.process.cwd };
  },
});
