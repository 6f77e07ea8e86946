/**
 * Releases taken one after another, run newest first: the shape of `AsyncDisposableStack`, which
 * Node 20 lacks. Each release runs even when one before it failed, so one stuck resource never
 * keeps the others open.
 */
export interface CleanupStack {
  /** Adds a release; the newest runs first. */
  defer(release: () => Promise<unknown> | unknown): void;
  /**
   * Runs every release, newest first, once (later calls do nothing). Throws the first failure, or
   * an AggregateError naming the first when several failed.
   */
  disposeAsync(): Promise<void>;
}

/** An empty stack. */
export function createCleanupStack(): CleanupStack {
  const releases: Array<() => Promise<unknown> | unknown> = [];
  let disposed = false;
  return {
    defer(release) {
      if (disposed) throw new Error('the cleanup stack has already been released');
      releases.push(release);
    },
    async disposeAsync() {
      if (disposed) return;
      disposed = true;
      const failures: unknown[] = [];
      for (const release of releases.splice(0).reverse()) {
        try {
          await release();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) {
        const first = failures[0];
        throw new AggregateError(failures, first instanceof Error ? first.message : String(first));
      }
    },
  };
}
