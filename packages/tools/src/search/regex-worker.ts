import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Where a pattern matched in one text: the line number, the line's bounds (UTF-16, `\r` left out) and the match's start. */
export type LineHit = readonly [line: number, start: number, end: number, at: number];

/** How a regex job ended without an answer: the caller stopped it, or the pattern was refused. */
export type RegexStop = { readonly kind: 'stopped' } | { readonly kind: 'invalid'; readonly problem: string };

/** One RE2 program compiled and run on its own thread, so no pattern can stall the caller's event loop. */
export interface RegexWorker {
  /** Settles once the pattern compiled; rejects with a `RegexStop` when it did not or the worker was stopped. */
  readonly ready: Promise<void>;
  /** The first `limit` matching lines of `text`, at most one hit per line (its first match). */
  find(text: string, limit: number): Promise<readonly LineHit[]>;
  /** Ends the thread at once, whatever it is doing; pending work rejects with `{kind: 'stopped'}`. Every user calls it when done. */
  terminate(): void;
}

/** Heap for one worker: a program of the largest pattern RE2 accepts fits many times over. */
const WORKER_HEAP_MB = 256;

// The worker's own code: plain CommonJS so it runs from the sources and from the build alike. Lines
// end at `\n`, a `\r` before it is not part of the line, and the empty piece after a final newline
// is not a line (the rules of find-in-text.ts, which turns these hits into matches).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { RE2JS } = require(workerData.engine);
let compiled;
parentPort.on('message', (message) => {
  if (message.pattern !== undefined) {
    try {
      compiled = RE2JS.compile(message.pattern, message.flags);
      parentPort.postMessage({ ready: true });
    } catch (error) {
      parentPort.postMessage({ ready: false, problem: 'is not a valid RE2 regular expression (' + String(error && error.message) + ')' });
    }
    return;
  }
  const { id, text, limit } = message;
  const hits = [];
  let line = 1;
  for (let start = 0; start < text.length && hits.length < limit; line++) {
    const newline = text.indexOf('\\n', start);
    let end = newline === -1 ? text.length : newline;
    const next = end + 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    const piece = text.slice(start, end);
    if (compiled.test(piece)) {
      const matcher = compiled.matcher(piece);
      if (matcher.find()) hits.push([line, start, end, start + matcher.start()]);
    }
    if (newline === -1) break;
    start = next;
  }
  parentPort.postMessage({ id, hits });
});
`;

let enginePath: string | undefined;

// Starting a thread and loading RE2 into it costs tens of milliseconds: a worker whose search ended
// normally waits here, unreferenced, for the next one. One stopped midway is terminated instead.
const idle: Worker[] = [];
const IDLE_MAX = 2;

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept !== undefined) {
    kept.ref();
    return kept;
  }
  enginePath ??= createRequire(import.meta.url).resolve('re2js');
  return new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { engine: enginePath },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    stdout: false,
    stderr: false,
  });
}

/**
 * Compiles `pattern` with RE2 `flags` on a worker thread and answers `find` requests one at a
 * time. Matching is linear in the text but its constant grows with the program, which a 4 KiB
 * pattern can make tens of thousands of states large: on a thread of its own that costs the caller
 * nothing but wall-clock time, which its deadline and signal bound by terminating the thread.
 */
export function startRegexWorker(pattern: string, flags: number): RegexWorker {
  const worker = takeWorker();
  let settleReady!: { resolve: () => void; reject: (stop: RegexStop) => void };
  const ready = new Promise<void>((resolve, reject) => (settleReady = { resolve, reject }));
  // Nobody may be waiting on `ready` when the worker dies; the rejection is still observed.
  ready.catch(() => undefined);
  const pending = new Map<number, { resolve: (hits: readonly LineHit[]) => void; reject: (stop: RegexStop) => void }>();
  let nextId = 0;
  let ended: RegexStop | undefined;
  const end = (stop: RegexStop) => {
    if (ended !== undefined) return;
    ended = stop;
    settleReady.reject(stop);
    for (const waiter of pending.values()) waiter.reject(stop);
    pending.clear();
  };
  const onMessage = (message: { ready?: boolean; problem?: string; id?: number; hits?: LineHit[] }) => {
    if (message.ready === true) settleReady.resolve();
    else if (message.ready === false) end({ kind: 'invalid', problem: message.problem ?? 'is not a valid RE2 regular expression' });
    else if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      waiter?.resolve(message.hits ?? []);
    }
  };
  // Running out of its heap means the program was too large to build or run: the pattern's fault.
  const onError = (error: Error & { code?: string }) =>
    end(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'invalid', problem: 'compiles to a program too large to run' } : { kind: 'stopped' });
  const onExit = () => end({ kind: 'stopped' });
  worker.on('message', onMessage);
  worker.on('error', onError);
  worker.on('exit', onExit);
  worker.postMessage({ pattern, flags });
  const detach = () => {
    worker.off('message', onMessage);
    worker.off('error', onError);
    worker.off('exit', onExit);
  };
  return {
    ready,
    find(text, limit) {
      if (ended !== undefined) return Promise.reject(ended);
      const id = nextId++;
      return new Promise<readonly LineHit[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, text, limit });
      });
    },
    terminate() {
      const wasRunning = ended === undefined;
      const busy = pending.size > 0;
      end({ kind: 'stopped' });
      detach();
      // Idle and healthy (compiled, nothing running): kept for the next search.
      if (wasRunning && !busy && idle.length < IDLE_MAX) {
        ready.then(
          () => {
            worker.unref();
            idle.push(worker);
          },
          () => void worker.terminate(),
        );
        return;
      }
      void worker.terminate();
    },
  };
}
