import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { FairThreadPool } from '@libos/provider-kit';
import type { ScanOutcome, ScanTask } from './scan-directory-task.js';

let workerFile: string | null | undefined;
let broken = false;
// One queue per search, served round-robin: a search of a huge tree takes one turn in each round,
// like a search of a small one, whichever session made it.
const pool = new FairThreadPool<object, ScanTask, ScanOutcome>({
  worker: () => ({
    file: workerFile!,
    // No flags of the host's (a test runner's conditions would resolve the thread's imports to sources).
    // The handles a thread opens for a search belong to that search, which closes them on the main
    // thread: a thread tracking them would close, at its exit, numbers since reused by others.
    options: { execArgv: [], trackUnmanagedFds: false },
  }),
  // A thread that fails (out of memory, killed) fails the directory it held, with an error that
  // sends the search back to the calling thread; a thread that never answered marks the threads
  // unusable for the process's life (its code does not load here).
  onCrash: (_cause, answered) => {
    if (!answered) broken = true;
  },
});

/** A search thread failed under a directory's scan: the search is made again on the calling thread. */
export class ThreadFailure extends Error {
  constructor(cause: Error) {
    super(`A search thread failed: ${cause.message}`, { cause });
  }
}

/**
 * Sets how many search threads the whole process may run at once (default: the machine's cores, at
 * most 4); 0 makes every search run on the calling thread. Idle threads above a lowered bound end
 * at once (the promise settles when they have), busy ones as they finish their directory.
 */
export async function setSearchThreads(size: number): Promise<void> {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('The search pool needs a whole number of threads, at least 0.');
  await pool.resize(size);
}

/** Whether searches may run in threads: some are allowed and the thread's code is found. */
export function searchThreadsAvailable(): boolean {
  workerFile ??= findWorkerFile();
  return pool.size > 0 && workerFile !== null && !broken;
}

/** What the pool is doing now, for tests and hosts. */
export function searchThreadStats(): { readonly maxThreads: number; readonly threads: number; readonly busy: number; readonly queued: number } {
  return pool.stats();
}

/** Scans one directory of the search `owner` in a thread, in its turn among the searches waiting. */
export function runScan(owner: object, task: ScanTask): Promise<ScanOutcome> {
  return new Promise((resolve, reject) => {
    pool.submit(owner, task, { answer: resolve, crash: (cause) => reject(new ThreadFailure(cause)) });
  });
}

// The built thread code: beside this module in dist, beside the sources' package in dist (tests run
// the sources), or through the package's exports (a host that bundled this module). None: every
// search runs on the calling thread.
function findWorkerFile(): string | null {
  const candidates = [new URL('./search-worker.js', import.meta.url), new URL('../dist/search-worker.js', import.meta.url)];
  for (const url of candidates) {
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return fileURLToPath(url);
  }
  try {
    return createRequire(import.meta.url).resolve('@libos/provider-local/search-worker');
  } catch {
    return null;
  }
}
