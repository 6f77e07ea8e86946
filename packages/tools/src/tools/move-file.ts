import { LibosError } from '@libos/core';
import { z } from 'zod';
import { defineTool } from '../tool-definition.js';
import { assertNoEgress } from './assert-no-egress.js';
import { identityField, pathField } from './tool-fields.js';

/** `move_file`: renames one regular file within the workspace, atomically, never lowering its label. */
export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move file',
  description:
    'Moves (renames) one regular file to a new path in the workspace in a single atomic step, creating missing parent ' +
    'directories of `to`. With `overwrite: false` (the default) anything already at `to` fails with already_exists, ' +
    'decided atomically; with `overwrite: true` an existing regular file at `to` is replaced, a directory is not_a_file. ' +
    'Needs the delete right on `from` and the write right on `to`. A file never moves to where it would carry a lower ' +
    'label or pass a sink below its label (egress_denied). Moving a file onto itself changes nothing. Fails with ' +
    'not_found, not_a_file, symlink_refused or hard_link_refused for links, hard-linked files and special files.',
  inputSchema: () =>
    z.strictObject({
      from: pathField('The file to move.'),
      to: pathField('Its new path.'),
      overwrite: z.boolean().default(false).describe('Replace a regular file already at `to` (default false: already_exists).'),
    }),
  outputSchema: z.strictObject({
    from: identityField,
    to: identityField,
    replaced: z.boolean().describe('True when a file at `to` was replaced.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const from = context.resolvePath(input.from);
    const to = context.resolvePath(input.to);
    const removing = await context.authorize({ right: 'delete', path: from, target: 'file' });
    const writing = await context.authorize({ right: 'write', path: to, target: 'file' });
    assertNoEgress(context, from, to, 'Moving');
    removing.spend();
    writing.spend();
    const rename = context.provider.rename;
    if (rename === undefined) {
      throw new LibosError('provider_failure', `The provider "${context.provider.name}" cannot rename files.`, { effect: 'none' });
    }
    if (from === to) {
      // Nothing moves, but the answer still says whether there is a movable file there.
      await context.provider.readFile(from, { maxBytes: 0, signal: context.signal });
      return { from, to, replaced: false };
    }
    const { replaced } = await rename.call(context.provider, from, to, { overwrite: input.overwrite, signal: context.signal });
    return { from, to, replaced };
  },
});
