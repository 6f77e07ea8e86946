import { LibosError, type FileSystemProviderV1, type WorkspacePath, providerErrors } from '@libos/core';
import type { CallEditor, History } from './state/call-history.js';
import type { RowStatements } from './state/entry-rows.js';
import type { StateDatabase } from './state/state-database.js';

/** What every part of one open overlay shares. */
export interface OverlayContext {
  readonly lower: FileSystemProviderV1;
  readonly state: StateDatabase;
  readonly rows: RowStatements;
  readonly history: History;
  /** Serializes this process's mutating calls; other processes are ordered by the generation check. */
  exclusive<T>(body: () => Promise<T>): Promise<T>;
  /** Throws `provider_failure` (closed) once the overlay is closed. */
  checkOpen(path: WorkspacePath): void;
  /** Before anything else runs: finishes or rolls back an apply a crash interrupted. */
  recover(): Promise<void>;
  now(): string;
}

/** A queue of one: each body starts when the previous one settled. */
export function createExclusive(): <T>(body: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(body: () => Promise<T>): Promise<T> => {
    const run = tail.then(body, body);
    tail = run.catch(() => undefined);
    return run;
  };
}

const MAX_ATTEMPTS = 50;

/**
 * Runs one agent mutation: `probe` observes (async, may read the lower), then `commit` decides and
 * writes in one transaction, recorded as call `tool`. If another process changed the overlay in
 * between, the probe is stale and the whole call starts again.
 */
export async function mutate<P, T>(
  context: OverlayContext,
  path: WorkspacePath,
  tool: string,
  probe: () => Promise<P>,
  commit: (probed: P, begin: (paths: readonly string[]) => CallEditor) => T,
): Promise<T> {
  return context.exclusive(async () => {
    await context.recover();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      context.checkOpen(path);
      const generation = context.state.generation();
      const probed = await probe();
      context.checkOpen(path);
      const outcome = context.state.write(() => {
        if (context.state.generation() !== generation) return { stale: true as const };
        return { stale: false as const, value: commit(probed, (paths) => context.history.begin(tool, paths, context.now())) };
      });
      if (!outcome.stale) return outcome.value;
    }
    throw new LibosError('changed_during_operation', `The overlay kept changing while the call on '${path}' ran; nothing was changed.`, {
      details: { path },
    });
  });
}

/** `provider_failure` (closed) for the overlay. */
export const closedError = (path: WorkspacePath): LibosError => providerErrors.closed(path, 'overlay');
