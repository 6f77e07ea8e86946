import { z } from 'zod';
import { atRealPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { deletionLoss } from './deletion-loss.js';
import { identityField, pathField } from './tool-fields.js';

/** `delete_file`: removes one regular file. */
export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete file',
  description:
    'Deletes one regular file. A missing file fails with not_found unless `missing_ok` is true, which reports ' +
    'kind "missing" and deleted false instead. Directories fail with not_a_file (use delete_directory), ' +
    'symbolic links with symlink_refused, files with several hard links with hard_link_refused.',
  inputSchema: () =>
    z.strictObject({
      path: pathField('The file to delete.'),
      missing_ok: z.boolean().default(false).describe('Succeed when the file does not exist (default false).'),
    }),
  outputSchema: z.strictObject({
    path: identityField,
    kind: z.enum(['file', 'missing']).describe('What was at the path: a file, or nothing.'),
    deleted: z.boolean(),
    recursive: z.literal(false),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async execute(input, context) {
    const asked = context.resolvePath(input.path);
    // The approver is told what the entry the delete will reach holds, whatever its spelling.
    const prepareLoss = async () =>
      (
        await atRealPath(
          context,
          asked,
          (real) => deletionLoss(context.provider, real, 'file', context.signal),
          (loss) => loss === undefined,
        )
      ).value;
    const permit = await context.authorize({ right: 'delete', path: asked, target: 'file', prepareLoss });
    permit.spend();
    const {
      path,
      value: { deleted },
    } = await atRealPath(
      context,
      asked,
      (real) => context.provider.deleteFile(real, { missingOk: input.missing_ok, signal: context.signal }),
      (result) => !result.deleted,
    );
    return { path, kind: deleted ? ('file' as const) : ('missing' as const), deleted, recursive: false as const };
  },
});
