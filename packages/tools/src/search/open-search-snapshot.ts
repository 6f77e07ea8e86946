import type { DirectoryHandle, WorkspacePath } from '@libos/core';
import type { ToolContext } from '../tool-definition.js';
import { snapshotDirectory } from './snapshot-directory.js';
import type { WalkClock } from './walk-clock.js';

/** The most bytes of files one `searchTree` answer may carry; past it, the walk reads candidates itself. */
const CARRIED_BYTES = 8_388_608;

/** What a search asks of the tree: see `TreeSearchQuery`. */
export interface SnapshotQuery {
  readonly needles: readonly Uint8Array[];
  readonly foldedNeedles: readonly Uint8Array[];
  readonly maxBytes: number;
  readonly maxEntries: number;
}

/**
 * The search's root as one `searchTree` answer, when the provider has the method and the tree fits
 * the walk's entry budget; undefined otherwise (the walk then lists directory by directory). The
 * walk goes through the answer with all its own rules, so the provider only spares it reads.
 */
export async function openSearchSnapshot(
  context: ToolContext,
  root: WorkspacePath,
  query: SnapshotQuery,
  clock: WalkClock,
): Promise<DirectoryHandle | undefined> {
  const { provider } = context;
  if (provider.searchTree === undefined) return undefined;
  const answer = await clock.race(
    provider.searchTree(root, { ...query, alwaysNames: ['.gitignore'], maxCarriedBytes: CARRIED_BYTES, signal: clock.signal }),
  );
  return answer.complete ? snapshotDirectory(provider, root, answer) : undefined;
}
