import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { submitRegexJob, type LineHit, type PoolJob, type RegexStop } from './regex-pool.js';

export type { LineHit, RegexStop } from './regex-pool.js';

/** One RE2 pattern of one search, compiled and run on the process's regex threads, so no pattern can stall the caller's event loop. */
export interface RegexWorker {
  /** Settles once the pattern compiled; rejects with a `RegexStop` when it did not or the search was stopped. */
  readonly ready: Promise<void>;
  /** The first `limit` matching lines of `text`, at most one hit per line (its first match). */
  find(text: string, limit: number): Promise<readonly LineHit[]>;
  /** Ends every job of this search, waiting or running (a running one's thread is terminated); pending work rejects with `{kind: 'stopped'}`. Every user calls it when done. */
  terminate(): void;
}

let engineUrl: string | undefined;

/**
 * Where a thread imports RE2 from: the built engine module (in this package's build or in a bundle
 * that inlines re2js), or, running from the TypeScript sources, re2js itself.
 */
export async function regexEngineUrl(): Promise<string> {
  if (engineUrl !== undefined) return engineUrl;
  const { ENGINE_URL } = await import('./re2-engine.js');
  engineUrl = /\.m?js$/u.test(ENGINE_URL) ? ENGINE_URL : pathToFileURL(createRequire(import.meta.url).resolve('re2js')).href;
  return engineUrl;
}

/**
 * Compiles `pattern` with RE2 `flags` and answers `find` requests, each one job on the process's
 * bounded pool of regex threads (regex-pool.ts), queued under `owner` (the calling process, so the
 * pool serves sessions in turn). Matching is linear in the text but its constant grows with the
 * program, which a 4 KiB pattern can make tens of thousands of states large: on a thread that costs
 * the caller nothing but wall-clock time, which its deadline and signal bound through `terminate`.
 */
export function startRegexWorker(engine: string, pattern: string, flags: number, owner: string): RegexWorker {
  const jobs = new Set<PoolJob>();
  let stopped = false;
  const submit = (text?: string, limit?: number): Promise<readonly LineHit[]> => {
    if (stopped) return Promise.reject<readonly LineHit[]>({ kind: 'stopped' } satisfies RegexStop);
    const job = submitRegexJob(engine, owner, text === undefined ? { pattern, flags } : { pattern, flags, text, limit: limit ?? 0 });
    jobs.add(job);
    return job.answer.finally(() => jobs.delete(job));
  };
  const ready = submit().then(() => undefined);
  // Nobody may be waiting on `ready` when the search stops; the rejection is still observed.
  ready.catch(() => undefined);
  return {
    ready,
    find: (text, limit) => submit(text, limit),
    terminate() {
      stopped = true;
      for (const job of jobs) job.cancel();
      jobs.clear();
    },
  };
}
