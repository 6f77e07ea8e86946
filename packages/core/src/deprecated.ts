// The helpers that moved to @libos/provider-kit, kept here for one release so code importing them
// from core still builds. Copies, not re-exports: core imports no other package. Each is marked
// @deprecated, and the contract's export bound (tooling/test/dependency-rule.test.ts) does not count
// the names of this file.
import type { Effect } from './error-code.js';
import { providerErrors } from './provider-errors.js';
import type { WorkspacePath } from './workspace-path.js';

/**
 * The closed-provider guard: admits calls until `close`, which waits for those in flight.
 * @deprecated Moved to `@libos/provider-kit` (a helper, not contract); this copy goes in the next minor.
 */
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

/**
 * Makes the closed-provider guard of a provider named `providerName` (used in the closed message).
 * @deprecated Moved to `@libos/provider-kit` (a helper, not contract); this copy goes in the next minor.
 */
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

/**
 * Throws the `cancelled` provider failure when `signal` has aborted; a provider calls it before it
 * starts and wherever it waits (a flush, a lock, a network round trip), with effect `unknown` once
 * it has begun changing things. A call past its last such point finishes as it would have.
 * @deprecated Moved to `@libos/provider-kit` (a helper, not contract); this copy goes in the next minor.
 */
export function checkSignal(signal: AbortSignal | undefined, path: WorkspacePath, effect: Effect = 'none'): void {
  if (signal?.aborted === true) throw providerErrors.cancelled(path, { effect });
}

/**
 * The error code a host error carries (`ENOENT`, `ERR_FS_EISDIR`, ...), or undefined for anything
 * that has none. Only the code is read: host messages and `path` fields name host paths.
 * @deprecated Moved to `@libos/provider-kit` (a helper, not contract); this copy goes in the next minor.
 */
export function hostErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Keeps the `limit` smallest items offered: items are gathered up to twice the limit, then sorted
 * and cut back to the limit, and anything not below the largest item kept is dropped on sight. So
 * memory stays O(limit) however many items stream past, and the work is a few native sorts instead
 * of a comparison-heavy heap (a 10,000-name listing: under 1 ms against 4 to 8 ms for a max-heap).
 * Listings use it so a directory of millions of entries costs no more memory than its first page.
 * @deprecated Moved to `@libos/provider-kit` (a helper, not contract); this copy goes in the next minor.
 */
export class SmallestItems<T> {
  private items: T[] = [];
  private overflow = false;
  // The largest item kept at the last cut: nothing at or above it can be among the smallest.
  private bound: T | undefined;

  constructor(
    private readonly limit: number,
    private readonly compare: (left: T, right: T) => number,
  ) {}

  /** True once more than `limit` items were offered. */
  get overflowed(): boolean {
    return this.overflow || this.items.length > this.limit;
  }

  /** Offers one item; it is kept while it is among the `limit` smallest so far. */
  offer(item: T): void {
    if (this.limit <= 0 || (this.bound !== undefined && this.compare(item, this.bound) >= 0)) {
      this.overflow = true;
      return;
    }
    this.items.push(item);
    if (this.items.length >= 2 * this.limit) this.cut();
  }

  /** The items kept, smallest first. */
  sorted(): T[] {
    this.items.sort(this.compare);
    if (this.items.length > this.limit) this.cut();
    return [...this.items];
  }

  private cut(): void {
    this.items.sort(this.compare);
    this.items.length = this.limit;
    this.overflow = true;
    this.bound = this.items[this.limit - 1];
  }
}
