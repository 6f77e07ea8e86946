import { providerErrors, type EntryKind, type WorkspacePath } from '@libos/core';

/**
 * The checks `rename` and `copyFile` make on what stands at `to`, in the contract's order: a link
 * is `symlink_refused`; a directory or a special file is `not_a_file`, since the wrong kind wins
 * over `overwrite`; a regular file with `overwrite: false` is `already_exists`. Nothing at `to`
 * passes. Whether a file to replace has more than one link stays the provider's check: only it can
 * count links.
 */
export function checkTransferTarget(to: WorkspacePath, kind: EntryKind | 'missing', overwrite: boolean): void {
  if (kind === 'missing') return;
  if (kind === 'symlink') throw providerErrors.symlinkRefused(to);
  if (kind !== 'file') throw providerErrors.notAFile(to, kind);
  if (!overwrite) throw providerErrors.alreadyExists(to);
}
