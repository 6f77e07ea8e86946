import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { LibosError, resolveWorkspacePath, ROOT_PATH } from '@libos/core';
import { createLocalProvider } from '@libos/provider-local';
import { afterAll, describe, expect, it } from 'vitest';
import { openOverlay } from '../src/index.js';
import { createSandbox } from './local-sandbox.js';

// A person editing, two agents on forks of one overlay applying, and the second apply (a merged one)
// SIGKILLed before and after each of its lower calls, the person appending a line at that moment.
// After recovery and a second apply, every line the person wrote and every hunk that landed is on
// disk once, the hunk that overlaps stays in the overlay, and undo gives back the bytes exactly.
// Sampled as apply-sigkill.test.ts is: SAMPLE points spread evenly, every point with LIBOS_STRESS=1.
const STRESS = process.env.LIBOS_STRESS === '1';
const SAMPLE = 12;
const CHILD = fileURLToPath(new URL('./children/merge-apply-then-die.mjs', import.meta.url));
const sandbox = createSandbox();
afterAll(() => sandbox.remove());
const path = (name: string) => resolveWorkspacePath(ROOT_PATH, name);
const encode = (text: string) => new TextEncoder().encode(text);
const lines = (label: string) => Array.from({ length: 20 }, (_, index) => `${label} ${index}\n`).join('');
const edit = (text: string, changes: Record<number, string>) =>
  text
    .split('\n')
    .map((line, index) => changes[index] ?? line)
    .join('\n');

const BASE: Record<string, string> = { 'one.txt': lines('one'), 'two.txt': lines('two'), 'three.txt': lines('three'), 'notes.txt': lines('note') };
// The person's edits, made after the agents started from BASE.
const PERSON: Record<string, string> = {
  'one.txt': edit(BASE['one.txt'] as string, { 2: 'person one 2' }),
  'two.txt': edit(BASE['two.txt'] as string, { 5: 'person two 5' }),
};
const FIRST: Record<string, string> = {
  'one.txt': edit(BASE['one.txt'] as string, { 10: 'first one 10' }),
  'three.txt': edit(BASE['three.txt'] as string, { 3: 'first three 3' }),
};
// The second agent works on a fork of the first: it holds the first's edits, and adds its own.
const SECOND: Record<string, string> = {
  'one.txt': edit(FIRST['one.txt'] as string, { 16: 'second one 16' }),
  'two.txt': edit(BASE['two.txt'] as string, { 5: 'second two 5', 15: 'second two 15' }),
  'notes.txt': edit(BASE['notes.txt'] as string, { 1: 'second note 1' }),
  'fresh.txt': 'second fresh\n',
};

const state = (name: string) => join(sandbox.stateDirectory, name);
function readRoot(): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const name of readdirSync(sandbox.root).sort()) if (name !== '.libos-staging') tree[name] = readFileSync(sandbox.at(name), 'utf8');
  return tree;
}

/** The two agents' overlays, the person's edits, and the first agent's apply: the scene before the second apply. */
async function prepare(): Promise<Record<string, string>> {
  rmSync(sandbox.root, { recursive: true, force: true });
  mkdirSync(sandbox.root);
  for (const [name, text] of Object.entries(BASE)) writeFileSync(sandbox.at(name), text);
  for (const name of readdirSync(sandbox.stateDirectory)) rmSync(join(sandbox.stateDirectory, name), { force: true });
  const lower = createLocalProvider({ root: sandbox.root });
  const first = await openOverlay({ lower, state: state('first.overlay') });
  for (const [name, text] of Object.entries(FIRST)) await first.provider.writeFile(path(name), encode(text), { overwrite: true });
  await first.fork(state('second.overlay'));
  const second = await openOverlay({ lower, state: state('second.overlay') });
  for (const [name, text] of Object.entries(SECOND)) await second.provider.writeFile(path(name), encode(text), { overwrite: true });
  await second.close();
  for (const [name, text] of Object.entries(PERSON)) writeFileSync(sandbox.at(name), text);
  expect((await first.apply()).conflicts).toEqual([]);
  await first.close();
  await lower.close();
  return readRoot();
}

function runChild(killAt: number, phase: 'before' | 'after'): Promise<{ killed: boolean; calls: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [sandbox.root, state('second.overlay')], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      execArgv: [],
      env: { ...process.env, NODE_OPTIONS: '', KILL_AT: String(killAt), KILL_PHASE: phase, LATE_FILE: 'notes.txt' },
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

const count = (text: string, line: string) => text.split('\n').filter((each) => each === line).length;

/** After a kill: recovery, a second apply, the lines, then undo of every apply back to the person's bytes. */
async function expectConverges(beforeSecond: Record<string, string>, reference: Record<string, string>, where: string, late: boolean) {
  const lower = createLocalProvider({ root: sandbox.root });
  const second = await openOverlay({ lower, state: state('second.overlay') });
  const first = await openOverlay({ lower, state: state('first.overlay') });
  try {
    const again = await second.apply();
    // The hunk that overlaps the person's line stays a conflict, every time; nothing else does.
    expect({ where, conflicts: again.conflicts.map((conflict) => [conflict.path, conflict.reason, conflict.hunks]) }).toEqual({
      where,
      conflicts: [['two.txt', 'overlapping_edit', [1]]],
    });
    const tree = readRoot();
    const expected = { ...reference, 'notes.txt': `${reference['notes.txt']}${late ? 'person late\n' : ''}` };
    expect({ where, tree }).toEqual({ where, tree: expected });
    for (const line of ['person one 2', 'person two 5', 'first one 10', 'first three 3', 'second one 16', 'second two 15', 'second note 1'])
      expect({ where, line, count: count(Object.values(tree).join(''), line) }).toEqual({ where, line, count: 1 });
    expect({ where, left: (await second.diff()).text.includes('+second two 5') }).toEqual({ where, left: true });
    // Undo, newest first, of every apply the second made, then the first's. Only notes.txt may refuse:
    // the person's late line came after the apply wrote it, and undo never writes over a person's edit.
    const undo = async (overlay: typeof second, name: string) => {
      const db = new Database(state(name), { readonly: true });
      const ids = db
        .prepare<[], { apply_id: string }>("SELECT apply_id FROM applies WHERE state = 'committed' ORDER BY rowid DESC")
        .all()
        .map((row) => row.apply_id);
      db.close();
      const conflicts: string[] = [];
      for (const id of ids) conflicts.push(...(await overlay.undoApply(id)).conflicts.map((conflict) => conflict.path));
      return conflicts;
    };
    const refused = await undo(second, 'second.overlay');
    expect({ where, refused: refused.filter((name) => name !== 'notes.txt') }).toEqual({ where, refused: [] });
    const undone = readRoot();
    const notes = undone['notes.txt'] as string;
    expect({ where, rest: { ...undone, 'notes.txt': '' } }).toEqual({ where, rest: { ...beforeSecond, 'notes.txt': '' } });
    expect({ where, late: count(notes, 'person late') }).toEqual({ where, late: late ? 1 : 0 });
    // The second agent's note is on disk (undo refused) or back in its overlay (undone): once, never both.
    const noteInOverlay = (await second.diff({ paths: ['notes.txt'] })).text.includes('+second note 1');
    expect({ where, note: count(notes, 'second note 1') + (noteInOverlay ? 1 : 0) }).toEqual({ where, note: 1 });
    expect({ where, notes: notes.replace('person late\n', '').replace('second note 1', 'note 1') }).toEqual({
      where,
      notes: beforeSecond['notes.txt'],
    });
    expect({ where, undo: await undo(first, 'first.overlay') }).toEqual({ where, undo: [] });
    const person = readRoot();
    expect({ where, person: { ...person, 'notes.txt': '' } }).toEqual({ where, person: { ...BASE, ...PERSON, 'notes.txt': '' } });
  } finally {
    await second.close();
    await first.close();
    await lower.close();
  }
}

describe('a merged apply of a fork, SIGKILLed at any lower call while the person edits', () => {
  it(
    'loses and doubles nothing, keeps the overlapping hunk in the overlay, and undoes exactly',
    async () => {
      const beforeSecond = await prepare();
      const plain = await runChild(0, 'after');
      expect(plain.killed).toBe(false);
      const reference = readRoot();
      expect(reference['one.txt']).toBe(edit(BASE['one.txt'] as string, { 2: 'person one 2', 10: 'first one 10', 16: 'second one 16' }));
      await expectConverges(beforeSecond, reference, 'not killed', false);
      const points: Array<{ phase: 'before' | 'after'; killAt: number }> = [];
      for (const phase of ['before', 'after'] as const) for (let killAt = 1; killAt <= plain.calls; killAt++) points.push({ phase, killAt });
      const tried = STRESS
        ? points
        : Array.from({ length: SAMPLE }, (_, index) => points[Math.round((index * (points.length - 1)) / (SAMPLE - 1))] as (typeof points)[number]);
      for (const point of tried) {
        const where = `killed ${point.phase} call ${point.killAt}`;
        const before = await prepare();
        const run = await runChild(point.killAt, point.phase);
        expect({ where, killed: run.killed }).toEqual({ where, killed: true });
        await expectConverges(before, reference, where, true).catch((error: unknown) => {
          throw LibosError.is(error) ? new Error(`${where}: ${error.code} ${error.message}`, { cause: error }) : error;
        });
      }
      expect(points.length).toBeGreaterThan(SAMPLE);
    },
    20 * 60_000,
  );
});
