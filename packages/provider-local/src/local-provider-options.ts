import type { WorkspacePath } from '@libos/core';

/** Options of `createLocalProvider`. */
export interface LocalProviderOptions {
  /** The host directory that is the workspace; resolved and opened once, at creation. */
  readonly root: string;
  /**
   * Lets the provider set the process's working directory to a pinned directory for the length of
   * one synchronous step (it is restored before any other code runs), so the names of that step are
   * looked up like `*at` system calls instead of through `/proc/self/fd`: a listing's lstats and a
   * recursive delete's unlinks cost about half. Set it only in a process that owns its working
   * directory: nothing else may resolve a relative path at the same moment on another thread (a
   * worker thread, or the host's own asynchronous fs calls with relative paths, which run on libuv's
   * threads). `libos mcp` and `libos serve` set it. Ignored in a worker thread. Default false.
   */
  readonly borrowWorkingDirectory?: boolean;
}

/** One directory pinned during resolution: what a testing hook sees between two steps. */
export interface ResolveStep {
  /** The provider method running, e.g. `readFile`. */
  readonly operation: string;
  /** The directory just pinned (the root is `.`); the next step acts on a name inside it. */
  readonly path: WorkspacePath;
  /** `walk`: a directory was just pinned; `effect`: the checks are done and the change comes next. */
  readonly stage: 'walk' | 'effect';
}

/**
 * Testing hooks, given only through `createLocalProviderWithHooks` of `@libos/provider-local/testing`:
 * deterministic hooks into path resolution and a replacement for `/proc/self/fd` to prove the
 * provider refuses a fake one. Never needed outside tests.
 */
export interface LocalProviderTestingHooks {
  /** Called synchronously after each directory is pinned and before the next name is used. */
  readonly afterResolveStep?: (step: ResolveStep) => void;
  /** Stands in for `/proc/self/fd`; anything but a real procfs makes creation fail. */
  readonly procFdDirectory?: string;
  /** How many subdirectory names a recursive delete holds per directory at once (default 65,536). */
  readonly directoriesPerBatch?: number;
}
