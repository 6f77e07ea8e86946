import { DEFAULT_BOUNDS, LibosError } from '@libos/core';
import type { Bounds, FileSystemProviderV1 } from '@libos/core';

/**
 * Refuses a runtime whose `bounds.workspace_max_bytes` the provider would not enforce, so a quota a
 * person wrote down is never silently ignored: a provider keeping a quota must keep exactly that
 * one, and a provider keeping none (a disk is bounded by its disk) accepts only the default bound.
 * Throws `invalid_arguments` naming both values and what to change.
 */
export function checkWorkspaceQuota(provider: FileSystemProviderV1, bounds: Bounds): void {
  const bound = bounds.workspace_max_bytes;
  const enforced = provider.workspaceMaxBytes;
  if (enforced === bound) return;
  if (enforced === undefined) {
    if (bound === DEFAULT_BOUNDS.workspace_max_bytes) return;
    throw new LibosError(
      'invalid_arguments',
      `The config's bounds.workspace_max_bytes is ${bound}, but the provider "${provider.name}" keeps no workspace quota to enforce it; remove the bound or use a provider that keeps one.`,
      { details: { bound: 'workspace_max_bytes', configured: bound, enforced: null } },
    );
  }
  throw new LibosError(
    'invalid_arguments',
    `The config's bounds.workspace_max_bytes is ${bound}, but the provider "${provider.name}" enforces ${enforced}; create the provider with the config's bound (workspaceMaxBytes: ${bound}).`,
    { details: { bound: 'workspace_max_bytes', configured: bound, enforced } },
  );
}
