import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBOS_BIN, runLibos, temporaryDirectory } from './support/libos-binary.js';

// `libos apply` SIGKILLed at varied moments after it first touches the workspace: whatever the
// moment, every file is whole and the next `libos changes` and `libos apply` converge.
let base: Awaited<ReturnType<typeof temporaryDirectory>>;
let pristine: string;
let root: string;
let state: string;
const on = () => ['--root', root, '--overlay', state];

const BASE: Record<string, string> = {
  'a.txt': 'alpha\n',
  'keep.txt': 'kept\n',
  'run.sh': '#!/bin/sh\necho run\n',
  'old/x.txt': 'x\n',
  'old/deep/y.txt': 'y\n',
};
const FINAL: Record<string, string> = { 'a.txt': 'ALPHA\n', 'keep.txt': 'kept\n', 'new/b.txt': 'b\n', 'new/c.txt': 'c\n' };

beforeAll(async () => {
  base = await temporaryDirectory('libos-overlay-kill-');
  pristine = join(base.path, 'pristine');
  root = join(base.path, 'workspace');
  state = join(base.path, 'state.overlay');
  mkdirSync(root, { recursive: true });
  for (const [name, content] of Object.entries(BASE)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), content);
  }
  chmodSync(join(root, 'run.sh'), 0o755);
  // The agent's session, once, on the very directory every kill restores in place (a state
  // belongs to its root's identity); each kill starts again from a copy of its result.
  const agentRoot = ['--root', root, '--overlay', state];
  for (const [tool, args] of [
    ['write_text_file', { path: 'a.txt', content: 'ALPHA\n' }],
    ['delete_file', { path: 'run.sh' }],
    ['delete_directory', { path: 'old', recursive: true }],
    ['write_text_file', { path: 'new/b.txt', content: 'b\n' }],
    ['write_text_file', { path: 'new/c.txt', content: 'c\n' }],
  ] as const)
    expect((await runLibos(['call', tool, JSON.stringify(args), ...agentRoot])).status).toBe(0);
  cpSync(root, join(pristine, 'workspace'), { recursive: true });
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(`${state}${suffix}`)) cpSync(`${state}${suffix}`, join(pristine, `state.overlay${suffix}`));
}, 120_000);
afterAll(async () => {
  await base?.remove();
});

function restore(): void {
  // Emptied and filled in place: the directory itself (its inode) is the state's root.
  for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
  cpSync(join(pristine, 'workspace'), root, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(`${state}${suffix}`, { force: true });
    if (existsSync(join(pristine, `state.overlay${suffix}`))) cpSync(join(pristine, `state.overlay${suffix}`), `${state}${suffix}`);
  }
}

/** Files of the workspace (its staging directory left out), by name. */
function files(): Record<string, string> {
  const found: Record<string, string> = {};
  const visit = (relative: string) => {
    for (const name of readdirSync(join(root, relative))) {
      if (relative === '' && name === '.libos-staging') continue;
      const at = relative === '' ? name : `${relative}/${name}`;
      if (lstatSync(join(root, at)).isDirectory()) visit(at);
      else found[at] = readFileSync(join(root, at), 'utf8');
    }
  };
  visit('');
  return found;
}

/** Runs `libos apply` and SIGKILLs it `delay` ms after the workspace's top directory first changes. */
function applyAndKill(mode: string[], delay: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LIBOS_BIN, 'apply', ...mode, ...on()], { stdio: ['ignore', 'ignore', 'ignore'] });
    const watcher = watch(root, () => {
      watcher.close();
      setTimeout(() => child.kill('SIGKILL'), delay);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      watcher.close();
      resolve(code);
    });
  });
}

describe('libos apply SIGKILLed midway', () => {
  it('never tears a file, and the next commands finish the job with nothing applied twice', async () => {
    // Every delay under `pnpm test:stress` (LIBOS_STRESS=1); a fixed spread of them otherwise.
    const delays = process.env.LIBOS_STRESS === '1' ? [0, 0, 1, 2, 3, 5, 8, 13, 21, 34, 55] : [0, 2, 5, 13, 34];
    for (const mode of [['--per-file'], ['--all-or-nothing']]) {
      for (const delay of delays) {
        const where = `${mode.join('')}, killed ${delay} ms in`;
        restore();
        await applyAndKill(mode, delay);
        // Whole: each name holds its base or its applied bytes (a file waiting aside holds some whole file).
        for (const [name, content] of Object.entries(files())) {
          const wanted = name.split('/').at(-1)?.startsWith('.libos-overlay-')
            ? [...Object.values(BASE), ...Object.values(FINAL)]
            : [BASE[name], FINAL[name]];
          expect({ where, name, whole: wanted.includes(content) }).toEqual({ where, name, whole: true });
        }
        const changes = await runLibos(['changes', ...on()]);
        expect({ where, status: changes.status }).toEqual({ where, status: 0 });
        const left = (JSON.parse(changes.stdout) as { changes: Array<{ path: string }> }).changes.map((change) => change.path);
        const recovered = files();
        expect({ where, asides: Object.keys(recovered).filter((name) => name.includes('.libos-overlay-')) }).toEqual({ where, asides: [] });
        if (mode[0] === '--all-or-nothing') expect({ where, recovered }).toEqual({ where, recovered: left.length === 0 ? FINAL : BASE });
        const apply = await runLibos(['apply', ...mode, ...on()]);
        const result = JSON.parse(apply.stdout || '{}') as { applied?: string[]; conflicts?: unknown[] };
        if (left.length > 0)
          expect({ where, status: apply.status, result }).toEqual({ where, status: 0, result: { ...result, applied: left, conflicts: [] } });
        expect({ where, now: files() }).toEqual({ where, now: FINAL });
        if (existsSync(join(root, 'run.sh'))) throw new Error(`${where}: run.sh is back`);
        const after = JSON.parse((await runLibos(['changes', ...on()])).stdout) as { changes: unknown[] };
        expect({ where, after: after.changes }).toEqual({ where, after: [] });
      }
    }
  }, 600_000);
});
