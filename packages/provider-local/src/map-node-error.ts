import { LibosError, providerErrors } from '@libos/core';
import type { Effect, WorkspacePath } from '@libos/core';
import { hostErrorCode } from '@libos/provider-kit';

/** A host error's code (`ENOENT`, ...), or undefined for anything that is not one; core's `hostErrorCode`. */
export const hostCode = hostErrorCode;

/**
 * The one place host errors become contract codes. Node's own messages name host paths, so they are
 * dropped: the error is rebuilt by core's factories from the root-relative `path`, and the host
 * error is not attached.
 */
export function mapNodeError(error: unknown, path: string, effect: Effect = 'none'): LibosError {
  if (LibosError.is(error)) return error.effect === effect || effect === 'none' ? error : error.withEffect(effect);
  const at = path as WorkspacePath;
  const code = hostErrorCode(error);
  const options = { effect };
  switch (code) {
    case 'ENOENT':
      return providerErrors.notFound(at, undefined, options);
    case 'EEXIST':
      return providerErrors.alreadyExists(at, options);
    case 'ENOTDIR':
      return providerErrors.notADirectory(at, undefined, options);
    case 'EISDIR':
      return providerErrors.notAFile(at, 'directory', options);
    case 'ENOTEMPTY':
      return providerErrors.directoryNotEmpty(at, options);
    case 'ELOOP':
      return providerErrors.symlinkRefused(at, at, options);
    default:
      // EACCES, ENOSPC, EROFS, EMFILE, EBUSY and the rest: core words each host condition once.
      return providerErrors.failure(at, code ?? null, options);
  }
}
