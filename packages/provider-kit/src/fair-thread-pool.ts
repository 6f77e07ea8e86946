import { availableParallelism } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** An idle thread ends after this long by default, so a quiet server holds no threads. */
export const FAIR_POOL_IDLE_MS = 30_000;

/** What a pool is doing now, for hosts and tests. */
export interface FairPoolStats {
  /** The most threads the pool runs at once. */
  readonly maxThreads: number;
  /** Threads alive now (busy or idle). */
  readonly threads: number;
  readonly busy: number;
  /** Jobs waiting for a thread, over every owner. */
  readonly queued: number;
}

/** How a pool starts its threads and hears of their failures. */
export interface FairPoolOptions {
  /** The thread's code and options, read each time a thread starts (so they may be settled late). */
  worker(): { readonly file: string | URL; readonly options?: WorkerOptions };
  /** The first bound on threads (default: the machine's cores, at most 4). */
  readonly size?: number;
  /** How long an idle thread lives (default FAIR_POOL_IDLE_MS). */
  readonly idleMs?: number;
  /** A thread failed (error or exit the pool did not ask for); `answered` says whether it ever answered a job. */
  onCrash?(cause: Error, answered: boolean): void;
}

/** What a job hears: its thread's answer, or the failure that took the thread down while it ran. */
export interface FairPoolCallbacks<Reply> {
  answer(reply: Reply): void;
  crash(cause: Error): void;
}

/** A submitted job: `cancel` drops it if it waits, or ends its thread if it runs; its callbacks are then never called. */
export interface FairPoolJob {
  cancel(): void;
}

interface Job<Message, Reply> extends FairPoolCallbacks<Reply> {
  readonly message: Message;
  thread?: Thread<Message, Reply>;
  done: boolean;
}

interface Thread<Message, Reply> {
  readonly worker: Worker;
  job: Job<Message, Reply> | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  answered: boolean;
}

/**
 * A bounded set of worker threads shared by many owners (sessions, searches): each owner has a FIFO
 * queue and the queues are served round-robin, so an owner with a backlog of sixty jobs takes one
 * turn in each round, like an owner with one. Threads start when a job needs one, take one job (one
 * message, one reply) at a time, keep the process alive only while busy, and end after `idleMs`
 * unused. The bound may change at run time; threads above a lowered bound end as they go idle.
 */
export class FairThreadPool<Owner, Message, Reply> {
  private maxThreads: number;
  private readonly idleMs: number;
  private readonly threads = new Set<Thread<Message, Reply>>();
  private readonly queues = new Map<Owner, Job<Message, Reply>[]>();
  private rotation: Owner[] = [];

  constructor(private readonly options: FairPoolOptions) {
    this.maxThreads = options.size ?? Math.max(1, Math.min(4, availableParallelism()));
    this.idleMs = options.idleMs ?? FAIR_POOL_IDLE_MS;
  }

  /** The bound on threads now. */
  get size(): number {
    return this.maxThreads;
  }

  /** Sets the bound (0 runs nothing). Idle threads above it end at once; the promise settles when they have. */
  async resize(size: number): Promise<void> {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('A thread pool needs a whole number of threads, at least 0.');
    this.maxThreads = size;
    const ended: Promise<number>[] = [];
    for (const thread of this.threads) {
      if (this.threads.size <= this.maxThreads) break;
      if (thread.job === undefined) ended.push(this.retire(thread, true));
    }
    this.dispatch();
    await Promise.all(ended);
  }

  stats(): FairPoolStats {
    let busy = 0;
    for (const thread of this.threads) if (thread.job !== undefined) busy++;
    let queued = 0;
    for (const queue of this.queues.values()) queued += queue.length;
    return { maxThreads: this.maxThreads, threads: this.threads.size, busy, queued };
  }

  /** Queues `message` for `owner`; it is posted to a thread in the owner's turn. */
  submit(owner: Owner, message: Message, callbacks: FairPoolCallbacks<Reply>): FairPoolJob {
    const job: Job<Message, Reply> = { message, answer: callbacks.answer, crash: callbacks.crash, done: false };
    let queue = this.queues.get(owner);
    if (queue === undefined) {
      queue = [];
      this.queues.set(owner, queue);
      this.rotation.push(owner);
    }
    queue.push(job);
    this.dispatch();
    return { cancel: () => this.cancel(owner, job) };
  }

  private cancel(owner: Owner, job: Job<Message, Reply>): void {
    if (job.done) return;
    job.done = true;
    const thread = job.thread;
    if (thread === undefined) {
      const queue = this.queues.get(owner);
      const at = queue?.indexOf(job) ?? -1;
      if (queue !== undefined && at !== -1) queue.splice(at, 1);
      if (queue?.length === 0) {
        this.queues.delete(owner);
        this.rotation = this.rotation.filter((item) => item !== owner);
      }
      return;
    }
    // A running job cannot be interrupted but by ending its thread; the next job gets a new one.
    void this.retire(thread, true);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.rotation.length > 0) {
      const thread = this.idleThread();
      if (thread === undefined) return;
      // The owner goes to the back of the round; an empty queue leaves it.
      const owner = this.rotation.shift()!;
      const queue = this.queues.get(owner)!;
      const job = queue.shift()!;
      if (queue.length === 0) this.queues.delete(owner);
      else this.rotation.push(owner);
      this.run(thread, job);
    }
  }

  private idleThread(): Thread<Message, Reply> | undefined {
    for (const thread of this.threads) if (thread.job === undefined) return thread;
    return this.threads.size < this.maxThreads ? this.start() : undefined;
  }

  private run(thread: Thread<Message, Reply>, job: Job<Message, Reply>): void {
    clearTimeout(thread.idleTimer);
    thread.idleTimer = undefined;
    thread.job = job;
    job.thread = thread;
    // A busy thread keeps the process alive, as the caller waiting for it would expect; an idle one does not.
    thread.worker.ref();
    thread.worker.postMessage(job.message);
  }

  private start(): Thread<Message, Reply> {
    const { file, options } = this.options.worker();
    const worker = new Worker(file, options);
    const thread: Thread<Message, Reply> = { worker, job: undefined, idleTimer: undefined, answered: false };
    this.threads.add(thread);
    worker.on('message', (reply: Reply) => {
      thread.answered = true;
      const job = thread.job;
      if (job === undefined) return;
      thread.job = undefined;
      job.done = true;
      this.rest(thread);
      job.answer(reply);
      this.dispatch();
    });
    const fail = (cause: Error) => {
      // A thread the pool ended itself (idle, cancelled, above the bound) is no failure.
      if (!this.threads.has(thread)) return;
      const job = thread.job;
      void this.retire(thread, false);
      this.options.onCrash?.(cause, thread.answered);
      if (job !== undefined && !job.done) {
        job.done = true;
        job.crash(cause);
      }
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A pool thread ended (exit code ${code}).`)));
    return thread;
  }

  private rest(thread: Thread<Message, Reply>): void {
    thread.worker.unref();
    if (this.threads.size > this.maxThreads) {
      void this.retire(thread, true);
      return;
    }
    thread.idleTimer = setTimeout(() => void this.retire(thread, true), this.idleMs);
    thread.idleTimer.unref();
  }

  private retire(thread: Thread<Message, Reply>, terminate: boolean): Promise<number> {
    if (!this.threads.delete(thread)) return Promise.resolve(0);
    clearTimeout(thread.idleTimer);
    thread.job = undefined;
    return terminate ? thread.worker.terminate() : Promise.resolve(0);
  }
}
