import { LibosError, type Effect, type WorkspacePath } from '@libos/core';

/** What the provider was doing when memfs failed, so the sentence can say it. */
export type MemfsAction = 'read' | 'list' | 'write' | 'create' | 'delete' | 'observe';

/**
 * Turns an error thrown by a memfs call into a LibosError naming only the canonical path.
 * memfs messages and `path` fields hold volume paths, so only `code` is read (memfs.md section 4).
 */
export function mapMemfsError(error: unknown, path: WorkspacePath, action: MemfsAction, effect: Effect = 'none'): LibosError {
  if (LibosError.is(error)) return effect === 'unknown' && error.effect === 'none' ? error.withEffect(effect) : error;
  const code = hostCode(error);
  const details = { path };
  switch (code) {
    case 'ENOENT':
      return new LibosError('not_found', `Nothing exists at '${path}'.`, { effect, details });
    case 'ENOTDIR':
      return new LibosError('not_a_directory', `A component of '${path}' is not a directory.`, { effect, details });
    case 'EEXIST':
      return new LibosError('already_exists', `Something already exists at '${path}'.`, { effect, details });
    case 'EISDIR':
    case 'EPERM':
      return new LibosError('not_a_file', `'${path}' is a directory, not a regular file.`, { effect, details });
    case 'ENOTEMPTY':
      return new LibosError('directory_not_empty', `The directory '${path}' is not empty.`, { effect, details });
    case 'ELOOP':
      return new LibosError('symlink_refused', `'${path}' is a symbolic link, which is never followed.`, { effect, details });
    default:
      return new LibosError('provider_failure', `The memory volume failed to ${action} '${path}' (${code ?? 'unknown error'}).`, {
        effect: action === 'read' || action === 'list' || action === 'observe' ? effect : 'unknown',
        details: { ...details, hostCode: code ?? null },
      });
  }
}

/** The errno-style code of a memfs error (`ENOENT`, `ERR_FS_EISDIR`, ...), if it has one. */
export function hostCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
