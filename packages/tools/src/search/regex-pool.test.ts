import { afterEach, describe, expect, it } from 'vitest';
import { regexPoolStats, setRegexPoolSize, submitRegexJob } from './regex-pool.js';
import { regexEngineUrl } from './regex-worker.js';

const defaultSize = regexPoolStats().maxThreads;
afterEach(() => setRegexPoolSize(defaultSize));

describe('the regex pool', () => {
  it('cancels a waiting job without running it, and ends the thread of a running one, replacing it for the next job', async () => {
    setRegexPoolSize(1);
    const engine = await regexEngineUrl();
    const running = submitRegexJob(engine, 'pid_a', { pattern: 'x+', flags: 0, text: 'xx\nyy\n', limit: 10 });
    const waiting = submitRegexJob(engine, 'pid_b', { pattern: 'y+', flags: 0, text: 'xx\nyy\n', limit: 10 });
    expect(regexPoolStats()).toMatchObject({ threads: 1, busy: 1, queued: 1 });
    waiting.cancel();
    await expect(waiting.answer).rejects.toEqual({ kind: 'stopped' });
    expect(regexPoolStats()).toMatchObject({ queued: 0 });
    // Still loading RE2 or matching: either way, only ending its thread stops it.
    running.cancel();
    await expect(running.answer).rejects.toEqual({ kind: 'stopped' });
    expect(regexPoolStats()).toMatchObject({ threads: 0, busy: 0 });
    const next = submitRegexJob(engine, 'pid_a', { pattern: 'y+', flags: 0, text: 'xx\nyy\n', limit: 10 });
    expect(await next.answer).toEqual([[2, 3, 5, 3]]);
    expect(regexPoolStats()).toMatchObject({ threads: 1, busy: 0, queued: 0 });
  });

  it('answers a refused pattern as invalid, and never runs more threads than its bound', async () => {
    setRegexPoolSize(2);
    const engine = await regexEngineUrl();
    const jobs = Array.from({ length: 8 }, (_, index) => submitRegexJob(engine, `pid_${index % 3}`, { pattern: '(a', flags: 0 }));
    expect(regexPoolStats()).toMatchObject({ threads: 2, busy: 2, queued: 6 });
    for (const job of jobs) await expect(job.answer).rejects.toMatchObject({ kind: 'invalid' });
    expect(regexPoolStats()).toMatchObject({ threads: 2, busy: 0, queued: 0 });
  });
});
