import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ScanOutcome, ScanTask } from './scan-directory-task.js';

/** An idle search thread ends after this long, so a quiet server holds none. */
const IDLE_MS = 30_000;

interface Job {
  readonly task: ScanTask;
  readonly resolve: (outcome: ScanOutcome) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  job: Job | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

let maxThreads = Math.max(1, Math.min(4, availableParallelism()));
const threads = new Set<Thread>();
// One queue per search, served round-robin: a search of a huge tree takes one turn in each round,
// like a search of a small one, whichever session made it.
const queues = new Map<object, Job[]>();
let rotation: object[] = [];
let workerFile: string | null | undefined;
let broken = false;

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
  maxThreads = size;
  // Idle threads above the bound end now; the promise settles once they have.
  const ended: Promise<number>[] = [];
  for (const thread of threads) {
    if (threads.size <= maxThreads) break;
    if (thread.job !== undefined) continue;
    threads.delete(thread);
    clearTimeout(thread.idleTimer);
    ended.push(thread.worker.terminate());
  }
  dispatch();
  await Promise.all(ended);
}

/** Whether searches may run in threads: some are allowed and the thread's code is found. */
export function searchThreadsAvailable(): boolean {
  workerFile ??= findWorkerFile();
  return maxThreads > 0 && workerFile !== null && !broken;
}

/** What the pool is doing now, for tests and hosts. */
export function searchThreadStats(): { readonly maxThreads: number; readonly threads: number; readonly busy: number; readonly queued: number } {
  let busy = 0;
  for (const thread of threads) if (thread.job !== undefined) busy++;
  let queued = 0;
  for (const jobs of queues.values()) queued += jobs.length;
  return { maxThreads, threads: threads.size, busy, queued };
}

/** Scans one directory of the search `owner` in a thread, in its turn among the searches waiting. */
export function runScan(owner: object, task: ScanTask): Promise<ScanOutcome> {
  return new Promise((resolve, reject) => {
    let queue = queues.get(owner);
    if (queue === undefined) {
      queue = [];
      queues.set(owner, queue);
      rotation.push(owner);
    }
    queue.push({ task, resolve, reject });
    dispatch();
  });
}

function dispatch(): void {
  for (;;) {
    const owner = rotation.find((candidate) => (queues.get(candidate)?.length ?? 0) > 0);
    if (owner === undefined) return;
    const thread = idleThread();
    if (thread === undefined) return;
    const queue = queues.get(owner)!;
    const job = queue.shift()!;
    // The owner goes to the back of the round; an empty queue leaves it.
    rotation = rotation.filter((candidate) => candidate !== owner);
    if (queue.length > 0) rotation.push(owner);
    else queues.delete(owner);
    start(thread, job);
  }
}

function idleThread(): Thread | undefined {
  for (const thread of threads) if (thread.job === undefined) return thread;
  return threads.size < maxThreads ? spawn() : undefined;
}

function spawn(): Thread {
  // No flags of the host's (a test runner's conditions would resolve the thread's imports to sources).
  // The handles a thread opens for a search belong to that search, which closes them on the main
  // thread: a thread tracking them would close, at its exit, numbers since reused by others.
  const worker = new Worker(workerFile!, { execArgv: [], trackUnmanagedFds: false });
  const thread: Thread = { worker, job: undefined, idleTimer: undefined };
  worker.unref();
  worker.on('message', (outcome: ScanOutcome) => {
    const job = thread.job;
    thread.job = undefined;
    rest(thread);
    job?.resolve(outcome);
    dispatch();
  });
  // A thread that fails (out of memory, killed) fails the directory it held, with an error that
  // sends the search back to the calling thread; a thread that never answered marks the threads
  // unusable for the process's life (its code does not load here).
  let answered = false;
  worker.once('message', () => {
    answered = true;
  });
  const fail = (cause: Error) => {
    if (!answered) broken = true;
    const error = new ThreadFailure(cause);
    threads.delete(thread);
    clearTimeout(thread.idleTimer);
    const job = thread.job;
    thread.job = undefined;
    job?.reject(error);
    dispatch();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`A search thread ended (exit code ${code}).`)));
  threads.add(thread);
  return thread;
}

function start(thread: Thread, job: Job): void {
  clearTimeout(thread.idleTimer);
  thread.job = job;
  // A busy thread keeps the process alive, as the search waiting for it would expect; an idle one does not.
  thread.worker.ref();
  thread.worker.postMessage(job.task);
}

function rest(thread: Thread): void {
  thread.worker.unref();
  if (threads.size > maxThreads) {
    threads.delete(thread);
    void thread.worker.terminate();
    return;
  }
  thread.idleTimer = setTimeout(() => {
    threads.delete(thread);
    void thread.worker.terminate();
  }, IDLE_MS);
  thread.idleTimer.unref();
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
