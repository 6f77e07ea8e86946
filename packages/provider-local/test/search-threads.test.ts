import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, fstatSync, linkSync, openSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TreeSearchAnswer, TreeSearchQuery, WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { searchThreadStats, setSearchThreads } from '../src/index.js';
import { createLocalProviderWithHooks } from '../src/testing.js';
import { createLocalTestbed, trackTestbeds } from './local-testbed.js';
import { walkOnly, writeScenarioFiles } from './search-support.js';

const track = trackTestbeds();
const scenarios = new URL('../../tools/test/support/search-scenarios.ts', import.meta.url).href;
type Scenario = { files: readonly { path: string; bytes: Uint8Array }[]; args: Record<string, unknown> };
const { searchScenario } = (await import(scenarios)) as { searchScenario: fc.Arbitrary<Scenario> };
const SEARCH: string = 'search_files';
const DEFAULT_THREADS = searchThreadStats().maxThreads;

afterEach(() => setSearchThreads(DEFAULT_THREADS));

const isOpen = (fd: number) => {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

const QUERY: TreeSearchQuery = { needles: [], alwaysNames: ['.gitignore'], maxBytes: 64, maxEntries: 10_000, maxCarriedBytes: 1e7 };

// The answer with its entries in one order (threads answer directories in the order they finish).
function ordered(answer: TreeSearchAnswer) {
  return { ...answer, entries: [...answer.entries].sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0)) };
}

const openFds = () => readdirSync('/proc/self/fd').length;

// What a hostile tree holds beside the generated files: links out of the root and inside it, a
// FIFO (never opened), a hard link (never read), a file and a directory nobody may read.
function addHazards(root: string, outside: string): void {
  mkdirSync(join(root, 'h/sub'), { recursive: true });
  symlinkSync(join(outside, 'secret.txt'), join(root, 'h/out.txt'));
  symlinkSync(outside, join(root, 'h/outdir'));
  symlinkSync('sub', join(root, 'h/inner'));
  execFileSync('mkfifo', [join(root, 'h/fifo')]);
  writeFileSync(join(root, 'h/sub/a.txt'), 'a b ab\n');
  linkSync(join(root, 'h/sub/a.txt'), join(root, 'h/sub/twin.txt'));
  writeFileSync(join(root, 'h/locked.txt'), 'ab locked\n');
  chmodSync(join(root, 'h/locked.txt'), 0);
  mkdirSync(join(root, 'h/shut'));
  writeFileSync(join(root, 'h/shut/x.txt'), 'ab\n');
  chmodSync(join(root, 'h/shut'), 0);
}

describe('searchTree on the search threads', () => {
  it('answers what the calling thread answers, and search_files what the walk answers, on generated trees with links, FIFOs, hard links and unreadable entries', async () => {
    const { sandbox, provider } = track(createLocalTestbed(undefined, { borrowWorkingDirectory: true }));
    // A provider with a testing hook always searches on the calling thread.
    const calling = createLocalProviderWithHooks({ root: sandbox.root, borrowWorkingDirectory: true }, { afterResolveStep: () => undefined });
    const pushed = (await createRuntime({ provider })).spawn();
    const pushedHere = (await createRuntime({ provider: calling })).spawn();
    const walked = (await createRuntime({ provider: walkOnly(provider) })).spawn();
    await setSearchThreads(2);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(searchScenario, async ({ files, args }) => {
        const root = `r${round++}`;
        writeScenarioFiles(sandbox.at, root, files);
        addHazards(sandbox.at(root), sandbox.outside);
        const call = { path: root, ...args };
        const query = { ...QUERY, needles: [new TextEncoder().encode('a')] };
        const here = await calling.searchTree!(root as WorkspacePath, query);
        const hereResult = await pushedHere.call(SEARCH, call);
        const threaded = await provider.searchTree!(root as WorkspacePath, query);
        expect(searchThreadStats().threads).toBeGreaterThan(0);
        expect(ordered(threaded)).toEqual(ordered(here));
        const threadedResult = await pushed.call(SEARCH, call);
        expect(threadedResult).toEqual(hereResult);
        expect(threadedResult).toEqual(await walked.call(SEARCH, call));
      }),
      { numRuns: 80 },
    );
  }, 180_000);

  it('closes every handle it held, whether the search ends, runs past its entry budget, fails or is cancelled', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    for (let top = 0; top < 6; top++) {
      for (let below = 0; below < 6; below++) {
        mkdirSync(sandbox.at(`t/d${top}/e${below}/f`), { recursive: true });
        writeFileSync(sandbox.at(`t/d${top}/e${below}/f/x.txt`), 'x');
      }
    }
    await setSearchThreads(2);
    const before = openFds();
    expect((await provider.searchTree!('t' as WorkspacePath, QUERY)).complete).toBe(true);
    expect(searchThreadStats().threads).toBeGreaterThan(0);
    // Past the budget midway: tasks in flight still hold handles when the stop is decided.
    for (const maxEntries of [3, 7, 20, 50, 100]) {
      expect(await provider.searchTree!('t' as WorkspacePath, { ...QUERY, maxEntries })).toEqual({ complete: false, entries: [] });
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const controller = new AbortController();
      const search = provider.searchTree!('t' as WorkspacePath, { ...QUERY, signal: controller.signal });
      setImmediate(() => controller.abort());
      await search.then(
        (answer) => expect(answer.complete).toBe(true),
        (error: unknown) => expect(error).toMatchObject({ code: 'provider_failure', details: { reason: 'cancelled' } }),
      );
    }
    expect(openFds()).toBe(before);
  }, 60_000);

  it('leaves the handles of others alone when its threads end (numbers a thread opened are reused by then)', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    for (let index = 0; index < 40; index++) {
      mkdirSync(sandbox.at(`t/d${index}/e`), { recursive: true });
      writeFileSync(sandbox.at(`t/d${index}/e/x.txt`), 'x');
    }
    await setSearchThreads(2);
    expect((await provider.searchTree!('t' as WorkspacePath, QUERY)).complete).toBe(true);
    // The search closed the handles its threads opened; these take their numbers.
    const mine = Array.from({ length: 40 }, () => openSync(sandbox.root, 'r'));
    try {
      await setSearchThreads(0);
      expect(searchThreadStats().threads).toBe(0);
      expect(mine.filter((fd) => !isOpen(fd))).toEqual([]);
    } finally {
      for (const fd of mine) if (isOpen(fd)) closeSync(fd);
    }
  }, 60_000);

  it('serves a small search in its turn while a large one is under way on the same thread', async () => {
    const { sandbox, provider } = track(createLocalTestbed());
    for (let index = 0; index < 300; index++) mkdirSync(sandbox.at(`large/d${index}`), { recursive: true });
    mkdirSync(sandbox.at('small'));
    writeFileSync(sandbox.at('small/x.txt'), 'x');
    await setSearchThreads(1);
    const finished: string[] = [];
    const large = provider.searchTree!('large' as WorkspacePath, QUERY).then(() => finished.push('large'));
    // The small search starts once the large one has tasks queued.
    await new Promise((resolve) => setImmediate(resolve));
    const small = provider.searchTree!('small' as WorkspacePath, QUERY).then(() => finished.push('small'));
    await Promise.all([large, small]);
    expect(finished).toEqual(['small', 'large']);
  }, 60_000);
});
