import { LibosError, pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';

/**
 * The one name the provider reserves: the directory at the root where every write stages its
 * temporary file. It is hidden from listings and refused by every resolution at any depth, so no
 * tool can see, read, write or delete a temporary, nor those of a runtime whose root is nested below.
 */
export const STAGING_NAME = '.libos-staging';

/** Whether a listed name (a byte string, or plain text) is the reserved one. */
export function isReservedName(name: string): boolean {
  return name === STAGING_NAME;
}

/** Whether any component of a canonical path is the reserved name. */
export function namesReserved(path: WorkspacePath): boolean {
  return path.includes(STAGING_NAME) && pathSegments(path).some(isReservedName);
}

/** What a call naming the reserved name gets: it answers as if nothing were there, and never makes one. */
export function refuseReserved(path: WorkspacePath, creates: boolean): LibosError {
  if (creates) {
    return new LibosError('protected_path', `'${path}' names the directory the provider reserves for its temporary files.`, {
      details: { path, protected: path },
    });
  }
  return providerErrors.notFound(path);
}
