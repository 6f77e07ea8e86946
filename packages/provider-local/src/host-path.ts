import { fstatSync, readlinkSync, statSync } from 'node:fs';
import { pathSegments, providerErrors } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import type { OperationContext } from './operation-context.js';
import { walk } from './walk.js';

/**
 * The host path of a workspace directory for a subprocess's cwd. The configured root's name may
 * since lead elsewhere (renamed, or replaced by a link), so the string is the kernel's current name
 * of the directory the walk pinned, and it is returned only if resolving it again lands on that
 * very directory. The subprocess still resolves it once more for itself (README: residual races).
 */
export function hostPathOf(context: OperationContext, path: WorkspacePath): string {
  const { directory } = walk(context, pathSegments(path));
  try {
    const held = fstatSync(directory.fd);
    if (held.nlink === 0) throw providerErrors.notFound(path);
    const current = readlinkSync(context.paths.of(directory.fd));
    let seen: { dev: number; ino: number } | null = null;
    try {
      seen = statSync(current);
    } catch {
      // Unreachable from here (another mount namespace, a `(deleted)` suffix): refused below.
    }
    if (seen === null || seen.dev !== held.dev || seen.ino !== held.ino) {
      throw providerErrors.changedDuringOperation(path);
    }
    return current;
  } finally {
    directory.release();
  }
}
