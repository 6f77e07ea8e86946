import { spawnSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { createRuntime } from '@libos/tools';
import { createLocalProvider } from '../src/index.js';
import { useChildBundles } from './child-bundle.js';
import { startChild, untilStopped } from './child-process.js';
import type { ChildOptions } from './child-process.js';
import { STAGING, stagedEntries, stagedTemporaries } from './local-testbed.js';

// Attacks on the cross-process name locks and on the writer registrations the start-up sweep
// trusts: a squatter of another user, runtimes in different network namespaces sharing a root, a
// holder killed while it holds, and many processes racing to reap one stale lock. Tests that need
// root (to run a child as nobody, or unshare) skip with the reason otherwise.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
// The longer runs only under `pnpm test:stress`; the default run (CI and the README's command) is the short one.
const inCi = process.env.LIBOS_STRESS !== '1';

/** Why `unshare --net` cannot run a child here, or null when it can. */
function unshareMissing(): string | null {
  if (!isRoot) return 'needs root to unshare a network namespace';
  const probe = spawnSync('unshare', ['--net', 'true'], { stdio: 'ignore' });
  if (probe.error !== undefined) return 'needs the unshare tool (util-linux)';
  if (probe.status !== 0) return `unshare --net is refused here (exit ${probe.status})`;
  return null;
}
const NET_NAMESPACE: ChildOptions = { wrapper: ['unshare', '--net'] };

const { child, sandbox } = useChildBundles(['guarded-counter', 'staged-writer', 'squat-locks']);

/** The lock name the provider uses for `name` in host directory `directory` (see src/name-lock.ts). */
function lockOf(directory: string, name: string): string {
  const { dev, ino } = statSync(directory);
  return `lock-${hash('sha256', `${dev}:${ino}:${name}`, 'hex').slice(0, 40)}`;
}

/** Runs `count` guarded-counter children on `root`, each started as `options` says, all released together once `beforeGo` ran; their successes. */
async function guardedIncrements(
  root: string,
  count: number,
  perChild: number,
  options: (index: number) => ChildOptions,
  beforeGo: () => void = () => undefined,
): Promise<number[]> {
  const counters = Array.from({ length: count }, (_, index) => startChild(child('guarded-counter'), [root, String(perChild)], options(index)));
  for (const counter of counters) expect(await counter.nextLine()).toBe('ready');
  beforeGo();
  for (const counter of counters) counter.process.stdin?.write('go\n');
  const reports = await Promise.all(counters.map(async (counter) => JSON.parse(await counter.nextLine()) as { successes: number }));
  await Promise.all(counters.map((counter) => counter.exited));
  return reports.map((report) => report.successes);
}

describe('a squatter of another user', () => {
  it('binds every name it can reach, and the owner still replaces, edits, deletes and moves the files', async (context) => {
    if (!isRoot) return context.skip('needs root to run the squatter as nobody');
    const { base, root, at } = sandbox();
    // A workspace other users may enter and read (0755), as most are: the squatter can stat every directory.
    chmodSync(base, 0o755);
    mkdirSync(at('d'));
    for (const name of ['f.txt', 'e.txt', 'gone.txt', 'from.txt', 'd/to.txt']) writeFileSync(at(name), 'a=1\n');
    const provider = createLocalProvider({ root });
    const runtime = await createRuntime({ provider });
    // The staging directory exists already, made by the first write, so the squatter meets it.
    expect(await provider.writeFile(p('f.txt'), bytes('first'), { overwrite: true })).toEqual({ created: false });
    const squatter = startChild(child('squat-locks'), [root, 'f.txt', 'e.txt', 'gone.txt', 'from.txt', 'd/to.txt'], { uid: NOBODY, gid: NOBODY });
    try {
      const report = JSON.parse(await squatter.nextLine()) as { abstract: string[]; staging: Record<string, string> };
      // It held the names of the old abstract-namespace locks: that alone once blocked every call below.
      expect(report.abstract).toEqual(['f.txt', 'e.txt', 'gone.txt', 'from.txt', 'd/to.txt']);
      // Nothing in the owner-only staging directory was within its reach.
      expect(Object.entries(report.staging).filter(([, outcome]) => outcome !== 'EACCES' && outcome !== 'refused' && outcome !== 'EEXIST')).toEqual(
        [],
      );
      expect(await provider.writeFile(p('f.txt'), bytes('second'), { overwrite: true })).toEqual({ created: false });
      const agent = runtime.spawn();
      const edit = await agent.call('edit_text_file', { path: 'e.txt', edits: [{ old_text: 'a=1', new_text: 'a=2' }] });
      expect(edit.ok).toBe(true);
      expect(await provider.deleteFile(p('gone.txt'), { missingOk: false })).toEqual({ deleted: true });
      expect(await provider.rename?.(p('from.txt'), p('d/to.txt'), { overwrite: true })).toEqual({ replaced: true });
      expect(readFileSync(at('f.txt'), 'utf8')).toBe('second');
      expect(readFileSync(at('e.txt'), 'utf8')).toBe('a=2\n');
      expect(existsSync(at('gone.txt')) || existsSync(at('from.txt'))).toBe(false);
      expect(stagedEntries(at(STAGING))).toEqual([]);
    } finally {
      squatter.process.stdin?.end();
      await squatter.exited;
      await runtime.close();
    }
  }, 120_000);
});

describe('two runtimes in different network namespaces on one root', () => {
  const missing = unshareMissing();

  it('guarded increments from both lose no update', async (context) => {
    if (missing !== null) return context.skip(missing);
    const { root, at } = sandbox();
    writeFileSync(at('n'), '0');
    const perChild = inCi ? 60 : 150;
    const successes = await guardedIncrements(root, 2, perChild, (index) => (index === 0 ? NET_NAMESPACE : {}));
    expect(successes).toEqual([perChild, perChild]);
    expect(readFileSync(at('n'), 'utf8')).toBe(String(2 * perChild));
  }, 180_000);

  it("one's start-up sweep spares the other's live temporary, and still sweeps a dead writer's", async (context) => {
    if (missing !== null) return context.skip(missing);
    const { root, at } = sandbox();
    writeFileSync(at('big'), 'old');
    // A writer in its own network namespace, stopped just before its rename: alive, holding a temporary and the lock.
    const live = startChild(child('staged-writer'), [root, 'stop-at-rename', 'z'], NET_NAMESPACE);
    expect(await live.nextLine()).toBe('ready');
    await untilStopped(live.process.pid ?? 0);
    const staged = readdirSync(at(STAGING)).sort();
    expect(stagedTemporaries(at(STAGING))).toHaveLength(1);
    const provider = createLocalProvider({ root });
    await provider.close();
    expect(readdirSync(at(STAGING)).sort()).toEqual(staged);
    live.process.kill('SIGCONT');
    expect(JSON.parse(await live.nextLine())).toEqual({ ok: true });
    await live.exited;
    expect(readFileSync(at('big')).every((byte) => byte === 0x7a)).toBe(true);
    // One killed in its namespace just before its rename leaves a temporary, its socket and its lock.
    const dead = startChild(child('staged-writer'), [root, 'kill-at-rename', 'y'], NET_NAMESPACE);
    expect(await dead.nextLine()).toBe('ready');
    expect((await dead.exited).signal).toBe('SIGKILL');
    expect(stagedTemporaries(at(STAGING))).toHaveLength(1);
    const sweeper = createLocalProvider({ root });
    await sweeper.close();
    expect(readdirSync(at(STAGING))).toEqual([]);
    expect(readFileSync(at('big')).every((byte) => byte === 0x7a)).toBe(true);
  }, 120_000);
});

describe('a holder that dies while it holds', () => {
  it('a writer SIGKILLed holding the lock: the next replace, append, delete and move of that name take it', async () => {
    for (const next of ['replace', 'append', 'delete', 'move'] as const) {
      const { root, at } = sandbox();
      writeFileSync(at('big'), 'old');
      const dead = startChild(child('staged-writer'), [root, 'kill-at-rename', 'y']);
      expect(await dead.nextLine()).toBe('ready');
      expect((await dead.exited).signal).toBe('SIGKILL');
      const lock = lockOf(root, 'big');
      expect(readdirSync(at(STAGING))).toContain(lock);
      const provider = createLocalProvider({ root });
      try {
        if (next === 'replace') expect(await provider.writeFile(p('big'), bytes('new'), { overwrite: true })).toEqual({ created: false });
        if (next === 'append') expect(await provider.appendFile?.(p('big'), bytes('+'), { create: false })).toMatchObject({ created: false });
        if (next === 'delete') expect(await provider.deleteFile(p('big'), { missingOk: false })).toEqual({ deleted: true });
        if (next === 'move') expect(await provider.rename?.(p('big'), p('moved'), { overwrite: false })).toEqual({ replaced: false });
      } finally {
        await provider.close();
      }
      // The stale lock was reaped, the dead writer's temporary and socket swept: nothing is left.
      expect(readdirSync(at(STAGING))).toEqual([]);
      expect(existsSync(at('big'))).toBe(next === 'replace' || next === 'append');
      if (next === 'replace') expect(readFileSync(at('big'), 'utf8')).toBe('new');
      if (next === 'append') expect(readFileSync(at('big'), 'utf8')).toBe('old+');
    }
  }, 120_000);
});

describe('many processes racing to reap one stale lock', () => {
  // Planted before the children start, their start-up sweeps race to reap it; planted once every
  // sweep has read the directory, their first increments do.
  for (const planted of ['before', 'after'] as const) {
    it(`guarded increments by several processes that all meet a lock held by a dead writer (and a dead reaper of it), planted ${planted} they start, lose no update`, async () => {
      const { root, at } = sandbox();
      writeFileSync(at('n'), '0');
      // A first provider makes the staging directory; two dead writers then leave refusing sockets.
      const maker = createLocalProvider({ root });
      await maker.writeFile(p('made'), bytes(''), { overwrite: true });
      await maker.close();
      const [dead, deadReaper] = ['d0d0d0d0d0d0d0d0', 'e1e1e1e1e1e1e1e1'];
      for (const id of [dead, deadReaper]) {
        const socket = join(at(STAGING), `writer-${id}.sock`);
        const script = `require('net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`;
        expect(spawnSync(process.execPath, ['-e', script]).signal).toBe('SIGKILL');
      }
      const lock = lockOf(root, 'n');
      const plant = (): void => {
        symlinkSync(dead, join(at(STAGING), lock));
        symlinkSync(deadReaper, join(at(STAGING), `${lock}.reap.${dead}`));
      };
      if (planted === 'before') plant();
      const processes = inCi ? 4 : 6;
      const perChild = inCi ? 25 : 60;
      const successes = await guardedIncrements(root, processes, perChild, () => ({}), planted === 'after' ? plant : undefined);
      expect(successes).toEqual(Array.from({ length: processes }, () => perChild));
      expect(readFileSync(at('n'), 'utf8')).toBe(String(processes * perChild));
      // Every stale entry was reaped or swept on the way.
      const sweeper = createLocalProvider({ root });
      await sweeper.close();
      expect(readdirSync(at(STAGING))).toEqual([]);
    }, 240_000);
  }
});

describe('the staging directory removed on the host mid-session', () => {
  it('each provider makes it again and registers anew: two providers doing guarded increments lose no update', async () => {
    const { root, at } = sandbox();
    writeFileSync(at('n'), '0');
    const providers = [createLocalProvider({ root }), createLocalProvider({ root })];
    const increment = async (index: number): Promise<number> => {
      const provider = providers[index % 2]!;
      for (;;) {
        const { bytes: read } = await provider.readFile(p('n'), { maxBytes: 64 });
        const sha = hash('sha256', read, 'hex');
        const next = bytes(String(Number(new TextDecoder().decode(read)) + 1));
        try {
          await provider.writeFile(p('n'), next, { overwrite: true, expectedSha256: sha });
          return 1;
        } catch (error) {
          if ((error as { code?: string }).code !== 'content_conflict') throw error;
        }
      }
    };
    try {
      let done = 0;
      for (let round = 0; round < 6; round++) {
        // Removed between rounds, sockets and all: the next lock of either provider finds it gone.
        rmSync(at(STAGING), { recursive: true, force: true });
        const results = await Promise.all(Array.from({ length: 10 }, (_, index) => increment(index)));
        done += results.length;
        writeFileSync(at('x'), 'x');
        expect(await providers[round % 2]!.deleteFile(p('x'), { missingOk: false })).toEqual({ deleted: true });
      }
      expect(readFileSync(at('n'), 'utf8')).toBe(String(done));
      // Both registered again in the new directory, and nothing else is left there.
      expect(readdirSync(at(STAGING)).filter((name) => name.startsWith('writer-'))).toHaveLength(2);
      expect(stagedEntries(at(STAGING))).toEqual([]);
    } finally {
      for (const provider of providers) await provider.close();
    }
    expect(readdirSync(at(STAGING))).toEqual([]);
  }, 120_000);
});
