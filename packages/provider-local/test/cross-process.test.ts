import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { createLocalProvider } from '../src/index.js';
import { useChildBundles } from './child-bundle.js';
import { startChild, untilStopped } from './child-process.js';
import { STAGING, stagedTemporaries } from './local-testbed.js';

// Attacks that need a second process: another libOS runtime on the same root, a reader in
// another process, writers killed or stopped mid-write. The children run the sources under test.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const { child, sandbox } = useChildBundles(['guarded-counter', 'creation-reader', 'staged-writer']);

describe('expectedSha256 across processes', () => {
  it('two runtimes in two processes doing guarded increments lose no update', async () => {
    const { root, at } = sandbox();
    writeFileSync(at('n'), '0');
    const perChild = 150;
    const counters = [0, 1].map(() => startChild(child('guarded-counter'), [root, String(perChild)]));
    for (const counter of counters) expect(await counter.nextLine()).toBe('ready');
    for (const counter of counters) counter.process.stdin?.write('go\n');
    const reports = await Promise.all(
      counters.map(async (counter) => JSON.parse(await counter.nextLine()) as { successes: number; conflicts: number }),
    );
    await Promise.all(counters.map((counter) => counter.exited));
    // Every reported success is an increment that stayed: the counter is their sum.
    expect(reports.map((report) => report.successes)).toEqual([perChild, perChild]);
    expect(readFileSync(at('n'), 'utf8')).toBe(String(2 * perChild));
  }, 120_000);
});

describe('creations seen from another process', () => {
  it('a reader in another process never sees a new file empty or partial, nor refused for a second link', async () => {
    const { root, at } = sandbox();
    mkdirSync(at('c'));
    const count = 300;
    const size = 256 * 1024;
    const reader = startChild(child('creation-reader'), [root, String(count), String(size)]);
    expect(await reader.nextLine()).toBe('ready');
    const provider = createLocalProvider({ root });
    try {
      const modes = [{ overwrite: false }, { overwrite: true, expectedSha256: 'missing' }, { overwrite: true }];
      for (let index = 0; index < count; index++) {
        const bytes = new Uint8Array(size).fill(0x41 + (index % 26));
        expect(await provider.writeFile(p(`c/${index}`), bytes, modes[index % 3] ?? { overwrite: true })).toEqual({ created: true });
      }
    } finally {
      await provider.close();
    }
    reader.process.stdin?.end();
    const seen = JSON.parse(await reader.nextLine()) as { whole: number; missing: number; partial: number; errors: string[] };
    expect({ partial: seen.partial, errors: seen.errors }).toEqual({ partial: 0, errors: [] });
    // The last pass alone, after every creation, reads each file whole twice.
    expect(seen.whole).toBeGreaterThanOrEqual(2 * count);
  }, 120_000);
});

// Batches of five killed writers: 20 (101 kills with the last one) under `pnpm test:stress`
// (LIBOS_STRESS=1), 6 (31 kills) in the default run, each start still sweeping what the dead left.
const KILL_BATCHES = process.env.LIBOS_STRESS === '1' ? 20 : 6;

describe('writers killed or stopped mid-write', () => {
  it(`after ${KILL_BATCHES * 5 + 1} SIGKILLs of writers (101 under pnpm test:stress), no temporary is visible, and the next start sweeps every one`, async () => {
    const { root, at } = sandbox();
    const runWriter = async (round: number): Promise<void> => {
      // Half die just before the rename (a temporary is certainly left); half at a random moment.
      const selfKill = round % 2 === 0;
      const writer = startChild(child('staged-writer'), [root, selfKill ? 'kill-at-rename' : 'loop', String.fromCharCode(0x61 + (round % 26))]);
      expect(await writer.nextLine()).toBe('ready');
      if (!selfKill) {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
        writer.process.kill('SIGKILL');
      }
      expect((await writer.exited).signal).toBe('SIGKILL');
    };
    // Five writers at a time; each one's start sweeps what earlier dead ones left.
    for (let batch = 0; batch < KILL_BATCHES; batch++) await Promise.all([0, 1, 2, 3, 4].map((index) => runWriter(batch * 5 + index)));
    // One more that certainly leaves its temporary, with no later start to sweep it.
    await runWriter(0);
    // Its temporary, its socket and the lock it held at the rename, each left for a sweep.
    const leftovers = readdirSync(at(STAGING));
    expect(stagedTemporaries(at(STAGING)).length).toBeGreaterThanOrEqual(1);
    expect(leftovers.filter((name) => name.startsWith('lock-')).length).toBeGreaterThanOrEqual(1);
    const provider = createLocalProvider({ root });
    try {
      const listing = await provider.listDirectory(p('.'), { limit: 100 });
      expect(listing.entries.map((entry) => entry.name).filter((name) => name !== 'big')).toEqual([]);
      for (const name of leftovers.slice(0, 5)) {
        await expect(provider.readFile(p(`${STAGING}/${name}`), { maxBytes: 10 })).rejects.toMatchObject({ code: 'not_found' });
      }
    } finally {
      await provider.close();
    }
    // close() waits for the start-up sweep.
    expect(readdirSync(at(STAGING))).toEqual([]);
    if (listingHas(at('.'), 'big')) {
      const big = readFileSync(at('big'));
      expect(big.length).toBe(1 << 20);
      expect(big.every((byte) => byte === big[0])).toBe(true);
    }
  }, 240_000);

  it('the sweep spares a live writer stopped mid-write, whose write then completes', async () => {
    const { root, at } = sandbox();
    writeFileSync(at('big'), 'old');
    const writer = startChild(child('staged-writer'), [root, 'stop-at-rename', 'z']);
    expect(await writer.nextLine()).toBe('ready');
    await untilStopped(writer.process.pid ?? 0);
    // Its temporary, its socket and the lock on `big`, which it holds while stopped.
    const staged = readdirSync(at(STAGING)).sort();
    expect(stagedTemporaries(at(STAGING))).toHaveLength(1);
    expect(staged.filter((name) => name.startsWith('lock-'))).toHaveLength(1);
    const provider = createLocalProvider({ root });
    await provider.close();
    expect(readdirSync(at(STAGING)).sort()).toEqual(staged);
    writer.process.kill('SIGCONT');
    expect(JSON.parse(await writer.nextLine())).toEqual({ ok: true });
    await writer.exited;
    expect(readFileSync(at('big')).every((byte) => byte === 0x7a)).toBe(true);
    expect(readdirSync(at(STAGING))).toEqual([]);
  }, 60_000);

  it('a temporary removed by another process mid-write fails the write honestly, and the target keeps its bytes', async () => {
    const { root, at } = sandbox();
    writeFileSync(at('big'), 'old');
    const writer = startChild(child('staged-writer'), [root, 'stop-at-rename', 'z']);
    expect(await writer.nextLine()).toBe('ready');
    await untilStopped(writer.process.pid ?? 0);
    const [staged = ''] = stagedTemporaries(at(STAGING));
    const { unlinkSync } = await import('node:fs');
    unlinkSync(at(`${STAGING}/${staged}`));
    writer.process.kill('SIGCONT');
    expect(JSON.parse(await writer.nextLine())).toEqual({ ok: false, code: 'changed_during_operation', effect: 'none' });
    await writer.exited;
    expect(readFileSync(at('big'), 'utf8')).toBe('old');
  }, 60_000);
});

function listingHas(directory: string, name: string): boolean {
  return readdirSync(directory).includes(name);
}
