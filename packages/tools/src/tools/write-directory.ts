import { z } from 'zod';
import { creationPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { identityField, pathField } from './tool-fields.js';

/** `write_directory`: creates a directory, and its parents by default. */
export const writeDirectory = defineTool({
  name: 'write_directory',
  title: 'Create directory',
  description:
    'Creates a directory. Missing parent directories are created too unless `parents` is false (then a missing parent ' +
    'fails with not_found). An existing directory is fine unless `exist_ok` is false (then already_exists). ' +
    '`created` tells whether the final directory was made by this call. ' +
    'Fails with not_a_directory when a file is in the way, or symlink_refused.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The directory to create.'),
      parents: z.boolean().default(true).describe('Create missing parent directories (default true).'),
      exist_ok: z.boolean().default(true).describe('Succeed when the directory already exists (default true).'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    created: z.boolean().describe('True when this call created the final directory.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const asked = context.resolvePath(input.path);
    const permit = await context.authorize({ right: 'write', path: asked, target: 'directory' });
    permit.spend();
    const path = await creationPath(context, asked);
    const { created } = await context.provider.makeDirectory(path, { parents: input.parents, existOk: input.exist_ok, signal: context.signal });
    return { path, created };
  },
});
