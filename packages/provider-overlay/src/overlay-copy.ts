import { checkSignal, providerErrors, type CopyFileOptions, type WorkspacePath } from '@libos/core';
import { lowerManifestStore } from './manifest-store.js';
import { putParents, toolOf } from './overlay-mutations.js';
import { mutate, type OverlayContext } from './overlay-context.js';
import { MISSING_BASE, baseOfRow, fileRow, lowerBase, modeOfSource, probePath } from './probe-path.js';

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
    toolOf(options, 'copyFile'),
    async () => {
      checkSignal(options.signal, from);
      const source = await probePath(context, from, options.signal);
      if (source.kind === 'missing') throw providerErrors.notFound(from, source.firstMissing);
      if (source.kind === 'directory' || source.kind === 'other') throw providerErrors.notAFile(from, source.kind);
      if (source.kind === 'symlink') throw providerErrors.symlinkRefused(from);
      const target = await probePath(context, to, options.signal);
      if (target.kind === 'symlink') throw providerErrors.symlinkRefused(to);
      // The wrong kind wins over overwrite: false, as for writeFile and rename.
      if (target.kind === 'directory' || target.kind === 'other') throw providerErrors.notAFile(to, target.kind);
      if (target.kind === 'file' && !options.overwrite) throw providerErrors.alreadyExists(to);
      // The lower's own reads refuse a hard-linked source, or a hard-linked file to replace.
      const sourceBase = await lowerBase(context, source, options.signal);
      const bytes = source.row?.content ?? ('bytes' in sourceBase ? sourceBase.bytes : undefined);
      if (bytes === undefined || bytes === null) throw providerErrors.failure(from, null, { effect: 'none' });
      const targetBase =
        target.kind === 'file' ? await lowerBase(context, target, options.signal) : target.row === undefined ? MISSING_BASE : baseOfRow(target.row);
      checkSignal(options.signal, to);
      return { source, target, targetBase, bytes };
    },
    ({ source, target, targetBase, bytes }, begin) => {
      const at = context.now();
      const editor = begin([from, to]);
      putParents(context, editor, target, at);
      editor.put(fileRow(to, bytes, lowerManifestStore(context, targetBase), at, modeOfSource(source)));
      return { bytesCopied: bytes.length, replaced: target.kind === 'file' };
    },
  );
}
