import { providerErrors, type WorkspacePath } from '@libos/core';

/** The closed-provider guard: admits calls until `close`, which waits for those in flight. */
export interface CallGate {
  /** True once `close` has been called. */
  readonly closed: boolean;
  /** Runs `body` as one call in flight; after `close` it fails with `provider_failure` (effect `none`) instead. */
  run<T>(path: WorkspacePath, body: () => T | Promise<T>): Promise<T>;
  /** Admits one synchronous call (for `hostPath`); the returned function ends it. Throws like `run` once closed. */
  enter(path: WorkspacePath): () => void;
  /**
   * Refuses new calls, waits for the calls in flight, then runs `release` once. Every caller gets
   * the same promise, so none returns while the resources are still held. Idempotent.
   */
  close(release?: () => void | Promise<void>): Promise<void>;
}

/** Makes the closed-provider guard of a provider named `providerName` (used in the closed message). */
export function createCallGate(providerName: string): CallGate {
  let inFlight = 0;
  let closed = false;
  let drained: (() => void) | undefined;
  let closing: Promise<void> | undefined;

  const enter = (path: WorkspacePath): (() => void) => {
    if (closed) throw providerErrors.closed(path, providerName);
    inFlight++;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      inFlight--;
      if (closed && inFlight === 0) drained?.();
    };
  };

  return {
    get closed() {
      return closed;
    },
    async run(path, body) {
      const leave = enter(path);
      try {
        return await body();
      } finally {
        leave();
      }
    },
    enter,
    close(release) {
      closing ??= (async () => {
        closed = true;
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        await release?.();
      })();
      return closing;
    },
  };
}
