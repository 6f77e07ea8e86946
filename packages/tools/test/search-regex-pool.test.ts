import { afterEach, describe, expect, it } from 'vitest';
import { regexPoolStats, setRegexPoolSize } from '../src/index.js';
import { createTestbed } from './support/harness.js';

const BOUND = 2;
const defaultSize = regexPoolStats().maxThreads;
afterEach(() => setRegexPoolSize(defaultSize));

describe('the regex threads of the whole process', () => {
  it('64 concurrent regex searches from three sessions run on at most the bound of threads, and a small session is served in turn', async () => {
    setRegexPoolSize(BOUND);
    const bed = await createTestbed();
    for (let index = 0; index < 20; index++) await bed.fixtures.writeFile(`f${String(index).padStart(2, '0')}.txt`, `one\ntoken ${index}\nthree\n`);
    const greedy = bed.process;
    const single = bed.runtime.spawn();
    const few = bed.runtime.spawn();
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, regexPoolStats().threads);
    }, 1);
    const finished: string[] = [];
    const search = async (session: { call: typeof greedy.call }, tag: string) => {
      const outcome = await session.call('search_files', { path: '.', query: 'tok(en)? [0-9]+', regex: true });
      expect(outcome).toMatchObject({ ok: true, result: { count: 20, stopped: null } });
      finished.push(tag);
    };
    try {
      // The greedy session queues its sixty first; the others arrive after.
      const all = Array.from({ length: 60 }, () => search(greedy, 'greedy'));
      all.push(search(single, 'single'));
      for (let index = 0; index < 3; index++) all.push(search(few, 'few'));
      await Promise.all(all);
    } finally {
      clearInterval(sampler);
    }
    most = Math.max(most, regexPoolStats().threads);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(BOUND);
    expect(finished).toHaveLength(64);
    // Served in turn: the single search and the three others end before half of the greedy backlog has.
    const greedyBefore = (tag: string) => finished.slice(0, finished.lastIndexOf(tag)).filter((item) => item === 'greedy').length;
    expect(greedyBefore('single')).toBeLessThan(30);
    expect(greedyBefore('few')).toBeLessThan(30);
    expect(regexPoolStats()).toMatchObject({ busy: 0, queued: 0 });
  }, 120_000);
});
