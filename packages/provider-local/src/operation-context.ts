import type { WorkspacePath } from '@libos/core';
import type { FdPaths } from './fd-paths.js';
import type { LocalProviderTestingHooks } from './local-provider-options.js';
import type { PinnedRoot } from './pinned-root.js';
import type { StagingArea } from './staging-area.js';

/** What every operation needs: the pinned root, the fd path builder, the staging area, the hooks, its own name. */
export interface OperationContext {
  readonly root: PinnedRoot;
  readonly paths: FdPaths;
  readonly staging: StagingArea;
  readonly hooks: LocalProviderTestingHooks;
  readonly operation: string;
  /** The call's signal; checked where the operation waits or loops. */
  readonly signal?: AbortSignal | undefined;
}

/** Tells the testing hook that `path` is pinned and the next step is about to run. */
export function stepped(context: OperationContext, path: WorkspacePath, stage: 'walk' | 'effect' = 'walk'): void {
  context.hooks.afterResolveStep?.({ operation: context.operation, path, stage });
}
