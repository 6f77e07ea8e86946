import { providerErrors, type CopyFileOptions, type WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';
import { mountErrors } from './mount-errors.js';
import type { Mount } from './mount-table.js';
import { rebasing } from './rebase-paths.js';

/** One side of a copy: a mount and the path inside it. */
export interface CopySide {
  readonly mount: Mount;
  readonly inner: WorkspacePath;
}

/**
 * Copies one file from one mount to another: the source's own `readFile` (so its provider refuses
 * links, hard links and special files as for any read), at most `maxBytes` bytes (`too_large`
 * otherwise, nothing written), then the target's own `writeFile` with the source's mode, which
 * makes the copy appear whole and decides `overwrite: false` atomically. The source is observed
 * again after the read: when it changed size or kind meanwhile the copy is refused with
 * `changed_during_operation` and nothing is written, so bytes and mode always come from one file.
 */
export async function copyBetweenMounts(
  source: CopySide,
  target: CopySide,
  options: CopyFileOptions,
  maxBytes: number,
): Promise<{ bytesCopied: number; replaced: boolean }> {
  const from = source.mount.outer(source.inner);
  checkSignal(options.signal, from);
  const call = { signal: options.signal, label: options.label ?? options.tool };
  const read = await rebasing(source.mount.outer, () => source.mount.provider.readFile(source.inner, { ...call, maxBytes }));
  if (read.truncated) throw mountErrors.copyTooLarge(from, maxBytes);
  const status = await rebasing(source.mount.outer, () => source.mount.provider.stat(source.inner, call));
  if (status.kind !== 'file' || status.sizeBytes !== read.bytes.length) throw providerErrors.changedDuringOperation(from);
  const mode = typeof status.mode === 'number' ? { mode: status.mode } : {};
  const written = await rebasing(target.mount.outer, () =>
    target.mount.provider.writeFile(target.inner, read.bytes, { ...call, overwrite: options.overwrite, ...mode }),
  );
  return { bytesCopied: read.bytes.length, replaced: !written.created };
}
