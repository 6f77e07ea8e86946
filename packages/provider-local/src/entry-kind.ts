import type { Stats } from 'node:fs';
import type { EntryKind } from '@libos/core';

/** The contract kind of what an lstat or an fstat of an unfollowed handle saw. */
export function entryKind(status: Stats): EntryKind {
  if (status.isFile()) return 'file';
  if (status.isDirectory()) return 'directory';
  if (status.isSymbolicLink()) return 'symlink';
  return 'other';
}
