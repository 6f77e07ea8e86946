import { LibosError, isRootPath } from '@libos/core';
import { z } from 'zod';
import { atRealPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { deletionLoss } from './deletion-loss.js';
import { identityField, pathField } from './tool-fields.js';

/** `delete_directory`: removes an empty directory, or a whole tree with `recursive`. */
export const deleteDirectory = defineTool({
  name: 'delete_directory',
  title: 'Delete directory',
  description:
    'Deletes a directory. Without `recursive` it must be empty (else directory_not_empty). With `recursive: true` ' +
    'the whole tree goes, deepest entries first; links inside are removed without being followed, and a tree that ' +
    'holds a .git directory anywhere is refused with protected_path before anything is deleted. ' +
    'The workspace root can never be deleted (root_refused). A missing directory fails with not_found unless ' +
    '`missing_ok` is true. If deletion fails partway, the error has effect "unknown": list the directory again.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The directory to delete.'),
      recursive: z.boolean().default(false).describe('Delete everything inside too (default false).'),
      missing_ok: z.boolean().default(false).describe('Succeed when the directory does not exist (default false).'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    kind: z.enum(['directory', 'missing']).describe('What was at the path: a directory, or nothing.'),
    deleted: z.boolean(),
    recursive: z.boolean().describe('The `recursive` option as given.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const asked = context.resolvePath(input.path);
    if (isRootPath(asked)) {
      throw new LibosError('root_refused', 'The workspace root cannot be deleted.', { details: { path: asked } });
    }
    const prepareLoss = async () =>
      (
        await atRealPath(
          context,
          asked,
          (real) => deletionLoss(context.provider, real, 'directory', context.signal),
          (loss) => loss === undefined,
        )
      ).value;
    const permit = await context.authorize({ right: 'delete', path: asked, target: 'directory', prepareLoss });
    permit.spend();
    const {
      path,
      value: { deleted },
    } = await atRealPath(
      context,
      asked,
      (real) => context.provider.deleteDirectory(real, { recursive: input.recursive, missingOk: input.missing_ok, signal: context.signal }),
      (result) => !result.deleted,
    );
    return { path, kind: deleted ? ('directory' as const) : ('missing' as const), deleted, recursive: input.recursive };
  },
});
