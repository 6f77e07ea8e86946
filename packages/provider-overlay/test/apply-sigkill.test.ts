import { fork } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { LibosError, resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterAll, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox, type Sandbox } from './local-sandbox.js';

// SIGKILL at the lower calls of an apply, before them and after them, in both modes: each point forks
// a child (about a tenth of a second on a quiet machine, five minutes for all of them on a loaded one).
// `pnpm test:stress` (LIBOS_STRESS=1) tries every point; the default run tries SAMPLE points spread
// evenly over the whole list (both modes, both phases, first and last call included), the same ones
// every run, so a failure in CI is reproduced by running the file again.
// LIBOS_SIGKILL_STRIDE=N tries every N-th point only; LIBOS_SIGKILL_FROM=K starts at call K (to look at one).
const STRESS = process.env.LIBOS_STRESS === '1';
const SAMPLE = 24;
const STRIDE = Number(process.env.LIBOS_SIGKILL_STRIDE ?? '1');
const FIRST = Number(process.env.LIBOS_SIGKILL_FROM ?? '1');
const EVERY_POINT = STRESS || process.env.LIBOS_SIGKILL_STRIDE !== undefined || process.env.LIBOS_SIGKILL_FROM !== undefined;

/** `count` items spread evenly over `items`, the first and the last included; all of them when there are fewer. */
function spreadSample<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.round((index * (items.length - 1)) / (count - 1))] as T);
}
const CHILD = fileURLToPath(new URL('./children/apply-then-die.mjs', import.meta.url));
/** One sandbox and state file; two run side by side, since a point mostly waits for its child. */
interface Lane {
  readonly sandbox: Sandbox;
  readonly state: string;
}
const lanes: Lane[] = [0, 1].map(() => {
  const sandbox = createSandbox();
  return { sandbox, state: join(sandbox.stateDirectory, 'killed.overlay') };
});
afterAll(() => {
  for (const lane of lanes) lane.sandbox.remove();
});
const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const bytes = (text: string) => new TextEncoder().encode(text);

/** A file's bytes and permission bits, or a directory. */
type Entry = { readonly kind: 'file'; readonly bytes: Buffer; readonly mode: number } | { readonly kind: 'directory' };
type Tree = ReadonlyMap<string, Entry>;
type ApplyMode = 'per_file' | 'all_or_nothing';
const file = (content: string | number[], mode = 0o644): Entry => ({
  kind: 'file',
  bytes: typeof content === 'string' ? Buffer.from(content) : Buffer.from(content),
  mode,
});
const DIRECTORY: Entry = { kind: 'directory' };

const BASE: Tree = new Map<string, Entry>([
  ['keep.txt', file('untouched\n', 0o640)],
  ['edit.txt', file('old line\n', 0o755)],
  ['edit2.txt', file('second old\n')],
  ['bin.dat', file([0, 255, 1, 254, 0, 0, 7])],
  ['gone.sh', file('#!/bin/sh\necho gone\n', 0o750)],
  ['tree', DIRECTORY],
  ['tree/a.txt', file('a\n')],
  ['tree/deep', DIRECTORY],
  ['tree/deep/b.txt', file('b\n', 0o600)],
  ['tree/deep/c.bin', file([0, 0, 0, 1, 255])],
  ['tree/deep/empty', DIRECTORY],
  ['f2d', file('a file that becomes a directory\n')],
  ['d2f', DIRECTORY],
  ['d2f/y.txt', file('y\n')],
]);

// What the agent does, through the overlay; FINAL is the lower once all of it is applied.
async function agentSession(agent: Awaited<ReturnType<typeof openOverlay>>['provider']): Promise<void> {
  await agent.writeFile(path('edit.txt'), bytes('new line\n'), { overwrite: true });
  await agent.writeFile(path('edit2.txt'), bytes('second new\n'), { overwrite: true });
  await agent.writeFile(path('bin.dat'), new Uint8Array([9, 0, 255, 128]), { overwrite: true });
  await agent.deleteFile(path('gone.sh'), { missingOk: false });
  await agent.writeFile(path('fresh.txt'), bytes('fresh\n'), { overwrite: false });
  await agent.writeFile(path('newdir/inner.bin'), new Uint8Array([0, 1, 2, 3, 255]), { overwrite: false });
  await agent.deleteDirectory(path('tree'), { recursive: true, missingOk: false });
  await agent.deleteFile(path('f2d'), { missingOk: false });
  await agent.writeFile(path('f2d/x.txt'), bytes('x inside\n'), { overwrite: false });
  await agent.deleteDirectory(path('d2f'), { recursive: true, missingOk: false });
  await agent.writeFile(path('d2f'), bytes('now a file\n'), { overwrite: false });
}
const FINAL: Tree = new Map<string, Entry>([
  ['keep.txt', file('untouched\n', 0o640)],
  ['edit.txt', file('new line\n', 0o755)],
  ['edit2.txt', file('second new\n')],
  ['bin.dat', file([9, 0, 255, 128])],
  ['fresh.txt', file('fresh\n')],
  ['newdir', DIRECTORY],
  ['newdir/inner.bin', file([0, 1, 2, 3, 255])],
  ['f2d', DIRECTORY],
  ['f2d/x.txt', file('x inside\n')],
  ['d2f', file('now a file\n')],
]);
const CHANGED = ['bin.dat', 'd2f', 'edit.txt', 'edit2.txt', 'f2d', 'f2d/x.txt', 'fresh.txt', 'gone.sh', 'newdir', 'newdir/inner.bin', 'tree'];
// Modes the apply must keep: files it never replaces by a new one.
const KEPT_MODES = ['keep.txt', 'edit.txt'];

function writeTree({ sandbox }: Lane, tree: Tree): void {
  rmSync(sandbox.root, { recursive: true, force: true });
  mkdirSync(sandbox.root);
  for (const [name, entry] of tree) {
    if (entry.kind === 'directory') mkdirSync(sandbox.at(name), { recursive: true });
    else {
      writeFileSync(sandbox.at(name), entry.bytes);
      chmodSync(sandbox.at(name), entry.mode);
    }
  }
}

/** The lower as the host sees it, without the local provider's own staging directory. */
function readTree({ sandbox }: Lane): Map<string, Entry> {
  const tree = new Map<string, Entry>();
  const visit = (relative: string) => {
    for (const name of readdirSync(relative === '' ? sandbox.root : sandbox.at(relative)).sort()) {
      if (relative === '' && name === '.libos-staging') continue;
      const at = relative === '' ? name : `${relative}/${name}`;
      const status = lstatSync(sandbox.at(at));
      if (status.isDirectory()) {
        tree.set(at, DIRECTORY);
        visit(at);
      } else tree.set(at, { kind: 'file', bytes: readFileSync(sandbox.at(at)), mode: status.mode & 0o777 });
    }
  };
  visit('');
  return tree;
}

const same = (left: Entry | undefined, right: Entry | undefined) =>
  left !== undefined &&
  right !== undefined &&
  left.kind === right.kind &&
  (left.kind === 'directory' || left.bytes.equals((right as typeof left).bytes));
const describeTree = (tree: Tree) =>
  [...tree]
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([name, entry]) => `${name}:${entry.kind === 'file' ? entry.bytes.toString('hex') : 'dir'}`);

/** Every file whole: each name holds exactly its base or its applied entry, and an aside holds some whole file. */
function expectWhole(tree: Tree, where: string): void {
  const wholeFiles = [...BASE.values(), ...FINAL.values()].filter((entry) => entry.kind === 'file');
  for (const [name, entry] of tree) {
    const leaf = name.split('/').at(-1) as string;
    if (leaf.startsWith('.libos-overlay-')) {
      expect({ where, name, whole: wholeFiles.some((whole) => same(whole, entry)) }).toEqual({ where, name, whole: true });
      continue;
    }
    expect({ where, name, whole: same(BASE.get(name), entry) || same(FINAL.get(name), entry) }).toEqual({ where, name, whole: true });
  }
}

function expectTree(tree: Tree, expected: Tree, where: string, modes: readonly string[]): void {
  expect({ where, tree: describeTree(tree) }).toEqual({ where, tree: describeTree(expected) });
  for (const name of modes) {
    const entry = tree.get(name);
    const wanted = expected.get(name);
    if (entry?.kind === 'file' && wanted?.kind === 'file') expect({ where, name, mode: entry.mode }).toEqual({ where, name, mode: wanted.mode });
  }
}

async function prepare(lane: Lane): Promise<void> {
  writeTree(lane, BASE);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${lane.state}${suffix}`, { force: true });
  const lower = createLocalProvider({ root: lane.sandbox.root });
  const overlay = await openOverlay({ lower, state: lane.state });
  await agentSession(overlay.provider);
  await overlay.close();
  await lower.close();
}

function runChild(lane: Lane, mode: ApplyMode, killAt: number, phase: 'before' | 'after'): Promise<{ killed: boolean; calls: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [lane.sandbox.root, lane.state, mode], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      // The child loads the built packages, not the test run's TypeScript sources.
      execArgv: [],
      env: { ...process.env, NODE_OPTIONS: '', KILL_AT: String(killAt), KILL_PHASE: phase },
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, calls: 0 });
      else if (code === 0) resolve({ killed: false, calls: (JSON.parse(out) as { calls: number }).calls });
      else reject(new Error(`the apply child exited with ${code}`));
    });
  });
}

/** The applies the state records, and for each path how many committed applies landed it. */
function journalSummary(lane: Lane): { states: string[]; landed: Map<string, number>; committed: string[] } {
  const db = new Database(lane.state, { readonly: true });
  try {
    const states = db
      .prepare<[], { state: string }>('SELECT state FROM applies ORDER BY at')
      .all()
      .map((row) => row.state);
    const committed = db
      .prepare<[], { apply_id: string }>("SELECT apply_id FROM applies WHERE state = 'committed' ORDER BY at, rowid")
      .all()
      .map((row) => row.apply_id);
    const landed = new Map<string, number>();
    for (const row of db
      .prepare<[], { path: string }>(
        "SELECT i.path FROM apply_items i JOIN applies a ON a.apply_id = i.apply_id WHERE a.state = 'committed' AND i.state = 'done'",
      )
      .all())
      landed.set(row.path, (landed.get(row.path) ?? 0) + 1);
    return { states, landed, committed };
  } finally {
    db.close();
  }
}

/** After a kill: the next operation recovers, a second apply converges, and undoing both gives the base back. */
async function expectConverges(lane: Lane, mode: ApplyMode, where: string): Promise<void> {
  expectWhole(readTree(lane), `${where}, as killed`);
  const lower = createLocalProvider({ root: lane.sandbox.root });
  const overlay = await openOverlay({ lower, state: lane.state });
  try {
    const recovered = readTree(lane);
    expect({ where, asides: [...recovered.keys()].filter((name) => name.includes('.libos-overlay-')) }).toEqual({ where, asides: [] });
    expectWhole(recovered, `${where}, recovered`);
    if (mode === 'all_or_nothing') {
      // Nothing applied, or everything: never a mix, and a rolled back file is the very file it was.
      const all = same(recovered.get('d2f'), FINAL.get('d2f'));
      if (all) expectTree(recovered, FINAL, `${where}, recovered`, KEPT_MODES);
      else expectTree(recovered, BASE, `${where}, recovered`, [...BASE.keys()]);
    }
    const left = (await overlay.changes()).changes.map((change) => change.path);
    const second = await overlay.apply({ mode });
    // Nothing lands twice: what is left applies without meeting itself as a conflict.
    expect({ where, conflicts: second.conflicts }).toEqual({ where, conflicts: [] });
    expect({ where, applied: second.applied }).toEqual({ where, applied: left });
    expectTree(readTree(lane), FINAL, `${where}, applied`, KEPT_MODES);
    expect({ where, left: (await overlay.changes()).changes }).toEqual({ where, left: [] });
    const journal = journalSummary(lane);
    expect({ where, unfinished: journal.states.filter((state) => state === 'running' || state === 'committing') }).toEqual({ where, unfinished: [] });
    expect({ where, landed: [...journal.landed].sort() }).toEqual({ where, landed: CHANGED.map((name) => [name, 1]) });
    // Undo is exact after a crash too: newest apply first, the lower is the base again (bytes and names).
    for (const applyId of journal.committed.reverse())
      expect({ where, undo: (await overlay.undoApply(applyId)).conflicts }).toEqual({ where, undo: [] });
    expectTree(readTree(lane), BASE, `${where}, undone`, []);
    expect({ where, back: (await overlay.changes()).changes.map((change) => change.path) }).toEqual({ where, back: CHANGED });
  } finally {
    await overlay.close();
    await lower.close();
  }
}

/** Runs one point: the agent's session, the apply killed there, then the checks; errors say where. */
async function killAndCheck(lane: Lane, mode: ApplyMode, phase: 'before' | 'after', killAt: number): Promise<boolean> {
  const where = killAt === 0 ? `${mode}, not killed` : `${mode}, killed ${phase} call ${killAt}`;
  await prepare(lane);
  const run = await runChild(lane, mode, killAt, phase);
  await expectConverges(lane, mode, where).catch((error: unknown) => {
    throw LibosError.is(error) ? new Error(`${where}: ${error.code} ${error.message}`, { cause: error }) : error;
  });
  return run.killed;
}

describe('an apply SIGKILLed at any lower call', () => {
  it(
    'leaves every file whole, and the next operation converges with nothing applied twice',
    async () => {
      const points: Array<{ mode: ApplyMode; phase: 'before' | 'after'; killAt: number }> = [];
      for (const mode of ['per_file', 'all_or_nothing'] as const) {
        // A run left alone counts its lower calls; every one of them is then a point, before and after.
        await prepare(lanes[0] as Lane);
        const { killed, calls } = await runChild(lanes[0] as Lane, mode, 0, 'after');
        expect(killed).toBe(false);
        await expectConverges(lanes[0] as Lane, mode, `${mode}, not killed`);
        for (const phase of ['before', 'after'] as const)
          for (let killAt = FIRST; killAt <= calls; killAt += STRIDE) points.push({ mode, phase, killAt });
      }
      if (process.env.LIBOS_SIGKILL_COUNT === '1') process.stderr.write(`sigkill points: ${points.length}\n`);
      const tried = EVERY_POINT ? points : spreadSample(points, SAMPLE);
      // The sample reaches both modes and both phases, and the first and last call of the list.
      expect(new Set(tried.map((point) => `${point.mode} ${point.phase}`)).size).toBe(4);
      let next = 0;
      await Promise.all(
        lanes.map(async (lane) => {
          for (let point = tried[next++]; point !== undefined; point = tried[next++])
            expect({ ...point, killed: await killAndCheck(lane, point.mode, point.phase, point.killAt) }).toEqual({ ...point, killed: true });
        }),
      );
      if (STRIDE === 1 && FIRST === 1) expect(points.length).toBeGreaterThanOrEqual(200);
    },
    30 * 60_000,
  );
});
