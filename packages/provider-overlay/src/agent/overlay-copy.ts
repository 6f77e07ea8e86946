import type { CopyFileOptions, WorkspacePath } from '@libos/core';
import { checkTransferTarget, checkSignal } from '@libos/provider-kit';
import { putTransfer, refuseLowerRules, sourceBytes, targetBaseOf, labelOf } from './overlay-mutations.js';
import { mutate, type OverlayContext } from '../overlay-context.js';
import { lowerBase, probePath, probeSource } from './probe-path.js';

/**
 * `copyFile` in the agent's view: `to` gets a row holding the source's bytes and naming whose mode
 * it carries; the lower is only read. Both sides are probed before anything is decided, and the
 * one transaction that writes the row re-checks that nothing changed since, so `overwrite: false`
 * is decided atomically and the copy appears whole (docs/overlay.md, "Append and copy").
 */
export function overlayCopyFile(
  context: OverlayContext,
  from: WorkspacePath,
  to: WorkspacePath,
  options: CopyFileOptions,
): Promise<{ bytesCopied: number; replaced: boolean }> {
  return mutate(
    context,
    to,
    labelOf(options, 'copyFile'),
    async () => {
      checkSignal(options.signal, from);
      refuseLowerRules(context, to);
      const source = await probeSource(context, from, options.signal);
      const target = await probePath(context, to, options.signal);
      checkTransferTarget(to, target.kind, options.overwrite);
      // The lower's own reads refuse a hard-linked source, or a hard-linked file to replace.
      const bytes = await sourceBytes(context, from, source, await lowerBase(context, source, options.signal), options.signal);
      const targetBase = await targetBaseOf(context, target, options.signal);
      checkSignal(options.signal, to);
      return { source, target, targetBase, bytes };
    },
    (transfer, begin) => {
      putTransfer(context, begin([from, to]), to, transfer, context.now());
      return { bytesCopied: transfer.bytes.length, replaced: transfer.target.kind === 'file' };
    },
  );
}
