import { LibosError } from '@libos/core';
import type { Effect } from '@libos/core';

/** A host error's code (`ENOENT`, ...), or undefined for anything that is not one. */
export function hostCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one place host errors become contract codes. Node's own messages name host paths, so they are
 * dropped: the message is rebuilt from the root-relative `path`, and the host error is not attached.
 */
export function mapNodeError(error: unknown, path: string, effect: Effect = 'none'): LibosError {
  if (LibosError.is(error)) return error.effect === effect || effect === 'none' ? error : error.withEffect(effect);
  const code = hostCode(error);
  const details = { path, host_code: code ?? 'unknown' };
  switch (code) {
    case 'ENOENT':
      return new LibosError('not_found', `Nothing exists at '${path}'.`, { effect, details });
    case 'EEXIST':
      return new LibosError('already_exists', `Something already exists at '${path}'.`, { effect, details });
    case 'ENOTDIR':
      return new LibosError('not_a_directory', `A component of '${path}' is not a directory.`, { effect, details });
    case 'EISDIR':
      return new LibosError('not_a_file', `'${path}' is a directory, not a file.`, { effect, details });
    case 'ENOTEMPTY':
      return new LibosError('directory_not_empty', `The directory '${path}' is not empty.`, { effect, details });
    case 'ELOOP':
      return new LibosError('symlink_refused', `'${path}' is a symbolic link, which is never followed.`, { effect, details });
    case 'EACCES':
    case 'EPERM':
      return new LibosError('provider_failure', `The host refused access to '${path}'.`, { effect, details });
    case 'ENOSPC':
    case 'EDQUOT':
      return new LibosError('provider_failure', `The host has no space left to write '${path}'.`, { effect, details });
    case 'EROFS':
      return new LibosError('provider_failure', `The workspace is on a read-only filesystem ('${path}').`, { effect, details });
    case 'EMFILE':
    case 'ENFILE':
      return new LibosError('provider_failure', `The host ran out of file descriptors at '${path}'.`, { effect, details });
    case 'EBUSY':
      return new LibosError('provider_failure', `'${path}' is busy on the host.`, { effect, details });
    default:
      return new LibosError('provider_failure', `The host failed an operation on '${path}'.`, { effect, details });
  }
}
