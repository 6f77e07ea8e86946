import { FairThreadPool } from '@libos/provider-kit';
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

type RegexMessage = { readonly pattern: string; readonly flags: number; readonly text?: string; readonly limit?: number };
type RegexReply = { readonly problem?: string; readonly hits?: LineHit[] };

let engineUrl = '';
let nextId = 0;
// One queue per owner (a runtime process: one MCP session), served round-robin: a session with a
// backlog of sixty searches takes one turn in each round, like a session with one.
const pool = new FairThreadPool<string, RegexMessage & { readonly id: number }, RegexReply>({
  worker: () => ({
    file: REGEX_WORKER_SOURCE,
    options: {
      eval: true,
      workerData: { engine: engineUrl },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      stdout: false,
      stderr: false,
    },
  }),
});

/**
 * Sets how many regex threads the whole process may run at once (default: the machine's cores, at
 * most 4). Threads above a lowered bound end as they finish their job.
 */
export function setRegexPoolSize(size: number): void {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError('The regex pool needs a whole number of threads, at least 1.');
  void pool.resize(size);
}

/** What the pool is doing now. */
export function regexPoolStats(): RegexPoolStats {
  return pool.stats();
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
export function submitRegexJob(engine: string, owner: string, message: RegexMessage): PoolJob {
  engineUrl = engine;
  let settled = false;
  let reject!: (stop: RegexStop) => void;
  let resolve!: (hits: readonly LineHit[]) => void;
  const answer = new Promise<readonly LineHit[]>((onHits, onStop) => {
    resolve = (hits) => {
      settled = true;
      onHits(hits);
    };
    reject = (stop) => {
      settled = true;
      onStop(stop);
    };
  });
  answer.catch(() => undefined);
  const job = pool.submit(
    owner,
    { id: nextId++, ...message },
    {
      answer: (reply) => (reply.problem !== undefined ? reject({ kind: 'invalid', problem: reply.problem }) : resolve(reply.hits ?? [])),
      // Running out of its heap means the program was too large to build or run: the pattern's fault.
      crash: (error: Error & { code?: string }) =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'invalid', problem: 'compiles to a program too large to run' } : { kind: 'stopped' },
        ),
    },
  );
  return {
    answer,
    cancel() {
      if (settled) return;
      job.cancel();
      reject({ kind: 'stopped' });
    },
  };
}
