import { LibosError } from '@libos/core';
import { z } from 'zod';
import { atRealPath, creationPath } from '../names/at-real-path.js';
import { defineTool } from '../tool-definition.js';
import { assertNoEgress } from './assert-no-egress.js';
import { identityField, pathField } from './tool-fields.js';

/** `copy_file`: copies one regular file whole, with its mode, never lowering its label. */
export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy file',
  description:
    'Copies one regular file to `to` in the workspace, with its permission bits, creating missing parent directories ' +
    'of `to`. The copy appears in one step: nobody ever sees a partial copy at `to`. With `overwrite: false` (the ' +
    'default) anything already at `to` fails with already_exists, decided atomically; with `overwrite: true` an ' +
    'existing regular file at `to` is replaced in one step, a directory is not_a_file. Needs the read right on `from` ' +
    'and the write right on `to`. A file is never copied to where it would carry a lower label or pass a sink below ' +
    'its label (egress_denied). Fails with not_found, not_a_file, symlink_refused or hard_link_refused for links, ' +
    'hard-linked files and special files.',
  inputSchema: () =>
    z.strictObject({
      from: pathField('The file to copy.'),
      to: pathField('Where the copy goes.'),
      overwrite: z.boolean().default(false).describe('Replace a regular file already at `to` (default false: already_exists).'),
    }),
  outputSchema: z.strictObject({
    from: identityField,
    to: identityField,
    bytes_copied: z.number().int().min(0),
    replaced: z.boolean().describe('True when a file at `to` was replaced.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async execute(input, context) {
    const from = context.resolvePath(input.from);
    const to = context.resolvePath(input.to);
    const reading = await context.authorize({ right: 'read', path: from, target: 'file' });
    const writing = await context.authorize({ right: 'write', path: to, target: 'file' });
    assertNoEgress(context, from, to, 'Copying');
    reading.spend();
    writing.spend();
    const copy = context.provider.copyFile;
    if (copy === undefined) {
      // No fallback through readFile and writeFile: it could neither keep the mode nor stay bounded in memory.
      throw new LibosError('provider_failure', `The provider "${context.provider.name}" cannot copy files.`, { effect: 'none' });
    }
    const target = await creationPath(context, to);
    const { path: source, value } = await atRealPath(context, from, (real) =>
      copy.call(context.provider, real, target, { overwrite: input.overwrite, signal: context.signal }),
    );
    return { from: source, to: target, bytes_copied: value.bytesCopied, replaced: value.replaced };
  },
});
