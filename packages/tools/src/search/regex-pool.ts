import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { REGEX_WORKER_SOURCE } from './regex-worker-source.js';

/** Where a pattern matched in one text: the line number, the line's bounds (UTF-16, `\r` left out) and the match's start. */
export type LineHit = readonly [line: number, start: number, end: number, at: number];

/** How a regex job ended without an answer: the caller stopped it, or the pattern was refused. */
export type RegexStop = { readonly kind: 'stopped' } | { readonly kind: 'invalid'; readonly problem: string };

/** What the process's regex threads are doing, for hosts and tests. */
export interface RegexPoolStats {
  /** The most threads the pool runs at once. */
  readonly maxThreads: number;
  /** Threads alive now (busy or idle). */
  readonly threads: number;
  readonly busy: number;
  /** Jobs waiting for a thread, over every owner. */
  readonly queued: number;
}

/** Heap for one thread: a program of the largest pattern RE2 accepts fits many times over. */
const WORKER_HEAP_MB = 256;
/** An idle thread ends after this long, so a quiet server holds no threads. */
const IDLE_MS = 30_000;

interface Job {
  readonly owner: string;
  readonly message: { readonly pattern: string; readonly flags: number; readonly text?: string; readonly limit?: number };
  readonly resolve: (hits: readonly LineHit[]) => void;
  readonly reject: (stop: RegexStop) => void;
  thread?: Thread;
}

interface Thread {
  readonly worker: Worker;
  job: Job | undefined;
  idleTimer: NodeJS.Timeout | undefined;
}

let maxThreads = Math.max(1, Math.min(4, availableParallelism()));
const threads = new Set<Thread>();
// One queue per owner (a runtime process: one MCP session), served round-robin: a session with a
// backlog of sixty searches takes one turn in each round, like a session with one.
const queues = new Map<string, Job[]>();
let rotation: string[] = [];
let engineUrl = '';
let nextId = 0;

/**
 * Sets how many regex threads the whole process may run at once (default: the machine's cores, at
 * most 4). Threads above a lowered bound end as they finish their job.
 */
export function setRegexPoolSize(size: number): void {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError('The regex pool needs a whole number of threads, at least 1.');
  maxThreads = size;
  dispatch();
}

/** What the pool is doing now. */
export function regexPoolStats(): RegexPoolStats {
  let busy = 0;
  for (const thread of threads) if (thread.job !== undefined) busy++;
  let queued = 0;
  for (const queue of queues.values()) queued += queue.length;
  return { maxThreads, threads: threads.size, busy, queued };
}

/** A job on the pool: its answer, and `cancel`, which ends it whether it waits or runs (its thread is terminated). */
export interface PoolJob {
  readonly answer: Promise<readonly LineHit[]>;
  cancel(): void;
}

/**
 * Queues one job for `owner`: compiling `pattern` (no `text`: the answer is empty once it
 * compiled) or finding the first `limit` matching lines of `text`. Each thread keeps the programs
 * it compiled last, so the jobs of one search rarely compile twice.
 */
export function submitRegexJob(engine: string, owner: string, message: Job['message']): PoolJob {
  engineUrl = engine;
  let settled = false;
  let job!: Job;
  const answer = new Promise<readonly LineHit[]>((resolve, reject) => {
    job = {
      owner,
      message,
      resolve: (hits) => {
        settled = true;
        resolve(hits);
      },
      reject: (stop) => {
        settled = true;
        reject(stop);
      },
    };
  });
  answer.catch(() => undefined);
  let queue = queues.get(owner);
  if (queue === undefined) {
    queue = [];
    queues.set(owner, queue);
    rotation.push(owner);
  }
  queue.push(job);
  dispatch();
  return {
    answer,
    cancel() {
      if (settled) return;
      if (job.thread === undefined) {
        const waiting = queues.get(owner);
        const at = waiting?.indexOf(job) ?? -1;
        if (waiting !== undefined && at !== -1) waiting.splice(at, 1);
        if (waiting?.length === 0) forget(owner);
        job.reject({ kind: 'stopped' });
        return;
      }
      // A running match cannot be interrupted but by ending its thread; the next job gets a new one.
      const thread = job.thread;
      job.reject({ kind: 'stopped' });
      retire(thread);
      void thread.worker.terminate();
      dispatch();
    },
  };
}

function forget(owner: string): void {
  queues.delete(owner);
  rotation = rotation.filter((item) => item !== owner);
}

// The next job in round-robin order of owners, or undefined when nothing waits.
function nextJob(): Job | undefined {
  const owner = rotation.shift();
  if (owner === undefined) return undefined;
  const queue = queues.get(owner)!;
  const job = queue.shift()!;
  if (queue.length === 0) queues.delete(owner);
  else rotation.push(owner);
  return job;
}

function dispatch(): void {
  for (const thread of threads) if (threads.size > maxThreads && thread.job === undefined) retire(thread, true);
  while (rotation.length > 0) {
    let thread: Thread | undefined;
    for (const candidate of threads) if (candidate.job === undefined) thread = candidate;
    if (thread === undefined && threads.size < maxThreads) thread = startThread();
    if (thread === undefined) return;
    run(thread, nextJob()!);
  }
}

function run(thread: Thread, job: Job): void {
  if (thread.idleTimer !== undefined) clearTimeout(thread.idleTimer);
  thread.idleTimer = undefined;
  thread.job = job;
  job.thread = thread;
  thread.worker.ref();
  thread.worker.postMessage({ id: nextId++, ...job.message });
}

function startThread(): Thread {
  const worker = new Worker(REGEX_WORKER_SOURCE, {
    eval: true,
    workerData: { engine: engineUrl },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    stdout: false,
    stderr: false,
  });
  const thread: Thread = { worker, job: undefined, idleTimer: undefined };
  threads.add(thread);
  worker.on('message', (message: { problem?: string; hits?: LineHit[] }) => {
    const job = thread.job;
    if (job === undefined) return;
    thread.job = undefined;
    if (message.problem !== undefined) job.reject({ kind: 'invalid', problem: message.problem });
    else job.resolve(message.hits ?? []);
    rest(thread);
    dispatch();
  });
  // Running out of its heap means the program was too large to build or run: the pattern's fault.
  worker.on('error', (error: Error & { code?: string }) => {
    const job = thread.job;
    retire(thread);
    job?.reject(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'invalid', problem: 'compiles to a program too large to run' } : { kind: 'stopped' },
    );
    dispatch();
  });
  worker.on('exit', () => {
    const job = thread.job;
    retire(thread);
    job?.reject({ kind: 'stopped' });
    dispatch();
  });
  return thread;
}

// An idle thread never keeps the host process running, and ends when nothing used it for a while.
function rest(thread: Thread): void {
  if (!threads.has(thread)) return;
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => retire(thread, true), IDLE_MS);
  thread.idleTimer.unref();
}

function retire(thread: Thread, terminate = false): void {
  if (!threads.delete(thread)) return;
  if (thread.idleTimer !== undefined) clearTimeout(thread.idleTimer);
  thread.job = undefined;
  if (terminate) void thread.worker.terminate();
}
