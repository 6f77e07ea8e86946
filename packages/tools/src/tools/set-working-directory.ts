import { LibosError } from '@libos/core';
import { z } from 'zod';
import { assertResultFits } from '../result-bound.js';
import { atRealPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { identityField, pathField } from './tool-fields.js';

/** `set_working_directory`: moves the process working directory to an existing directory. */
export const setWorkingDirectory = defineTool({
  name: 'set_working_directory',
  title: 'Set working directory',
  description:
    'Changes the working directory of this process, against which later relative paths are resolved. ' +
    'The target must be an existing directory inside the workspace that you may read; symbolic links are refused. ' +
    'Returns the new working directory as a path relative to the workspace root. ' +
    'Fails with not_found, not_a_directory or symlink_refused and leaves the working directory unchanged.',
  inputSchema: () => z.strictObject({ path: pathField('The directory to move to.') }),
  outputSchema: z.strictObject({ working_directory: identityField }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const asked = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'read', path: asked, target: 'directory' });
    permit.spend();
    const { path, value: status } = await atRealPath(context, asked, async (real) => {
      const status = await context.provider.stat(real, { signal: context.signal });
      if (status.kind === 'missing') throw new LibosError('not_found', `The directory "${real}" does not exist.`, { details: { path: real } });
      return status;
    });
    if (status.kind === 'symlink') {
      throw new LibosError('symlink_refused', `"${path}" is a symbolic link, which is never followed.`, { details: { path } });
    }
    if (status.kind !== 'directory') {
      throw new LibosError('not_a_directory', `"${path}" is not a directory.`, { details: { path, kind: status.kind } });
    }
    const output = { working_directory: path };
    // Measured before the cwd moves, so a result over the bound really changed nothing.
    assertResultFits(output, context.bounds, 'none');
    await context.moveWorkingDirectory(path);
    return output;
  },
});
