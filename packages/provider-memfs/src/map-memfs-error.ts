import { LibosError, providerErrors, type Effect, type WorkspacePath } from '@libos/core';
import { hostErrorCode } from '@libos/provider-kit';

/** What the provider was doing when memfs failed: a failed read, list or observation changed nothing. */
export type MemfsAction = 'read' | 'list' | 'write' | 'create' | 'delete' | 'observe';

/**
 * Turns an error thrown by a memfs call into a LibosError naming only the canonical path.
 * memfs messages and `path` fields hold volume paths, so only `code` is read (packages/provider-memfs/README.md, Why memfs).
 */
export function mapMemfsError(error: unknown, path: WorkspacePath, action: MemfsAction, effect: Effect = 'none'): LibosError {
  if (LibosError.is(error)) return effect === 'unknown' && error.effect === 'none' ? error.withEffect(effect) : error;
  const code = hostErrorCode(error);
  const options = { effect };
  switch (code) {
    case 'ENOENT':
      return providerErrors.notFound(path, undefined, options);
    case 'ENOTDIR':
      return providerErrors.notADirectory(path, undefined, options);
    case 'EEXIST':
      return providerErrors.alreadyExists(path, options);
    case 'EISDIR':
    // memfs answers an unlink of a directory with EPERM, as POSIX allows.
    case 'EPERM':
      return providerErrors.notAFile(path, 'directory', options);
    case 'ENOTEMPTY':
      return providerErrors.directoryNotEmpty(path, options);
    case 'ELOOP':
      return providerErrors.symlinkRefused(path, path, options);
    default:
      return providerErrors.failure(path, code ?? null, {
        effect: action === 'read' || action === 'list' || action === 'observe' ? effect : 'unknown',
      });
  }
}
