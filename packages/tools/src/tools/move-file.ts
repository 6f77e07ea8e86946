import { Buffer } from 'node:buffer';
import { LibosError, type WorkspacePath } from '@libos/core';
import { z } from 'zod';
import { type AtRealPath, atRealPath, creationPath } from '../names/at-real-path.js';
import { defineTool, type ToolContext } from '../tool-definition.js';
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
    // Only an approver makes the move read first: it is shown source, destination, size and SHA-256.
    let shown: Promise<AtRealPath<Uint8Array>> | undefined;
    const prepareContent = async () => {
      try {
        shown ??= atRealPath(context, from, (real) => readForApproval(context, real));
        return { bytes: (await shown).value, move: { from, to } };
      } catch (error) {
        if (LibosError.is(error, 'approval_required')) throw error;
        return undefined; // the move fails after approval with the same error, so an ask grant probes nothing
      }
    };
    const removing = await context.authorize({ right: 'delete', path: from, target: 'file', prepareContent });
    const writing = await context.authorize({ right: 'write', path: to, target: 'file', prepareContent });
    assertNoEgress(context, from, to, 'Moving');
    removing.spend();
    writing.spend();
    const seen = await shown?.catch(() => undefined);
    if (seen !== undefined) await assertUnchanged(context, seen.path, seen.value);
    const rename = context.provider.rename;
    if (rename === undefined) {
      throw new LibosError('provider_failure', `The provider "${context.provider.name}" cannot rename files.`, { effect: 'none' });
    }
    // A destination spelled as the source is the source, whatever the source turns out to be.
    const destination = from === to ? undefined : await creationPath(context, to);
    const moved = await atRealPath(context, from, async (source) => {
      const target = destination ?? source;
      if (source === target) {
        // Nothing moves, but the answer still says whether there is a movable file there.
        await context.provider.readFile(source, { maxBytes: 0, signal: context.signal });
        return { target, replaced: false };
      }
      const { replaced } = await rename.call(context.provider, source, target, { overwrite: input.overwrite, signal: context.signal });
      return { target, replaced };
    });
    return { from: moved.path, to: moved.value.target, replaced: moved.value.replaced };
  },
});

/** The whole file for an approver, within `bounds.edit_max_bytes`; past that it cannot be shown and nobody is asked. */
async function readForApproval(context: ToolContext, from: WorkspacePath): Promise<Uint8Array> {
  const maxBytes = context.bounds.edit_max_bytes;
  const read = await context.provider.readFile(from, { maxBytes, signal: context.signal });
  if (!read.truncated && read.bytes.length <= maxBytes) return read.bytes;
  throw new LibosError(
    'approval_required',
    `Moving ${JSON.stringify(from)} needs approval, but a file larger than ${maxBytes} bytes (bounds.edit_max_bytes) cannot be shown for approval with its SHA-256; nothing was changed.`,
    { details: { right: 'delete', path: from } },
  );
}

/**
 * The approver was shown these bytes' hash: a file changed since then does not move. (A writer that
 * replaces it between this read and the rename is not caught: the provider has no guarded rename.)
 */
async function assertUnchanged(context: ToolContext, from: WorkspacePath, approved: Uint8Array | undefined): Promise<void> {
  if (approved === undefined) return;
  const now = await context.provider.readFile(from, { maxBytes: approved.length, signal: context.signal });
  if (!now.truncated && Buffer.from(now.bytes).equals(approved)) return;
  throw new LibosError('content_conflict', `The file ${JSON.stringify(from)} changed after it was shown for approval; nothing was moved.`, {
    details: { path: from },
  });
}
