import type { WorkspacePath } from '@libos/core';
import { checkSignal } from '@libos/provider-kit';

/** Thrown inside a walk once its deadline has passed; the walk ends there and answers with what it found. */
export const DEADLINE_PASSED = Symbol('deadline passed');

/** Longest stretch of synchronous work between two turns of the event loop, in milliseconds. */
const SLICE_MS = 8;

/**
 * The wall-clock bound of one search or listing walk, and its cancellation. `signal` aborts at
 * the deadline or when the caller's signal does, so a provider that waits stops waiting; `race`
 * stops waiting for one that does not. `breathe` lets the event loop turn every few milliseconds:
 * a provider that answers synchronously (the local one does) must not hold every other session
 * and timer of the process for the whole walk.
 */
export interface WalkClock {
  readonly signal: AbortSignal;
  /** Whether the deadline has passed (the caller's cancellation throws instead). */
  readonly expired: boolean;
  /** `step`, or `DEADLINE_PASSED` thrown at the deadline, or the cancellation error when the caller gave up. */
  race<Result>(step: Promise<Result>): Promise<Result>;
  /** Yields to the event loop when the current slice is used up; throws like `race` once stopped. */
  breathe(): Promise<void>;
  /**
   * `breathe` when it would yield or throw, else undefined: a loop of many small synchronous steps
   * (ignore rules, globs) awaits only when it must, so the common case stays synchronous.
   */
  pause(): Promise<void> | undefined;
  /** Calls `listener` once the walk is stopped (at once when it already is). */
  onStop(listener: () => void): void;
  dispose(): void;
}

/** Starts the clock of a walk rooted at `path` (named by a cancellation error). */
export function startWalkClock(deadlineMs: number, callerSignal: AbortSignal | undefined, path: WorkspacePath): WalkClock {
  const controller = new AbortController();
  let expired = false;
  const expire = () => {
    expired = true;
    controller.abort();
  };
  const timer = setTimeout(expire, deadlineMs);
  // A timer fires only when the event loop turns; the walk also reads the clock itself.
  const deadlineAt = performance.now() + deadlineMs;
  const cancel = () => controller.abort();
  callerSignal?.addEventListener('abort', cancel, { once: true });
  if (callerSignal?.aborted === true) controller.abort();
  const stopped = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(STOP), { once: true });
  });
  stopped.catch(() => undefined);
  const failure = (): unknown => {
    // The caller's cancellation wins over a deadline that passed in the same turn.
    checkSignal(callerSignal, path);
    return DEADLINE_PASSED;
  };
  let sliceStart = performance.now();
  return {
    signal: controller.signal,
    get expired() {
      return expired && callerSignal?.aborted !== true;
    },
    async race(step) {
      if (controller.signal.aborted) {
        step.catch(() => undefined);
        throw failure();
      }
      try {
        return await Promise.race([step, stopped]);
      } catch (error) {
        if (error === STOP || controller.signal.aborted) throw failure();
        throw error;
      }
    },
    async breathe() {
      const now = performance.now();
      if (now >= deadlineAt && !controller.signal.aborted) expire();
      if (controller.signal.aborted) throw failure();
      if (now - sliceStart < SLICE_MS) return;
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
      if (controller.signal.aborted) throw failure();
    },
    pause() {
      const now = performance.now();
      if (!controller.signal.aborted && now - sliceStart < SLICE_MS && now < deadlineAt) return undefined;
      return this.breathe();
    },
    onStop(listener) {
      if (controller.signal.aborted) listener();
      else controller.signal.addEventListener('abort', listener, { once: true });
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', cancel);
    },
  };
}

const STOP = Symbol('stop');
