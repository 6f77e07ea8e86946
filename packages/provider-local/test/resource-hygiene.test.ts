import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LibosError, ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createLocalProviderWithHooks, type ResolveStep } from '../src/testing.js';
import { createLocalProvider } from '../src/index.js';
import { createSandbox } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// Every call, whatever way it ends, gives back each fd it opened: a leak would make a long-running
// server fail with EMFILE after enough refusals.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const one = new Uint8Array([1]);
const openFds = (): number => readdirSync('/proc/self/fd').length;

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function sandboxWithHook(): { sandbox: Sandbox; open: () => FileSystemProviderV1; hook: { at?: (step: ResolveStep) => void } } {
  const sandbox = createSandbox();
  cleanups.push(() => sandbox.remove());
  const hook: { at?: (step: ResolveStep) => void } = {};
  const open = () => createLocalProviderWithHooks({ root: sandbox.root }, { afterResolveStep: (step) => hook.at?.(step) });
  return { sandbox, open, hook };
}

/** Runs a call and keeps only whether it succeeded or which code it failed with. */
async function outcome(call: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (!LibosError.is(error)) throw error;
    return error.code;
  }
}

it('no fd outlives a call, on success or on any refusal, nor a close amid calls', async () => {
  const { sandbox, open, hook } = sandboxWithHook();
  const { at } = sandbox;
  mkdirSync(at('d/e'), { recursive: true });
  writeFileSync(at('d/f.txt'), 'x');
  writeFileSync(at('h1'), 'h');
  linkSync(at('h1'), at('h2'));
  execFileSync('mkfifo', [at('fifo')]);
  symlinkSync(sandbox.outside, at('link'));
  const round = async (provider: FileSystemProviderV1): Promise<string[]> => {
    // A tree whose delete meets a .git that appears after the pre-scan.
    mkdirSync(at('t/u/v'), { recursive: true });
    writeFileSync(at('t/u/w.txt'), 'w');
    hook.at = (step) => {
      if (step.operation === 'deleteDirectory' && step.stage === 'effect') mkdirSync(at('t/u/v/.git'), { recursive: true });
    };
    const calls = [
      () => provider.deleteDirectory(p('t'), { recursive: true, missingOk: false }),
      () => provider.readFile(p('nope'), { maxBytes: 10 }),
      () => provider.readFile(p('h1'), { maxBytes: 10 }),
      () => provider.readFile(p('fifo'), { maxBytes: 10 }),
      () => provider.readFile(p('link/secret.txt'), { maxBytes: 10 }),
      () => provider.readFile(p('d'), { maxBytes: 10 }),
      () => provider.readFile(p('d/f.txt/x'), { maxBytes: 10 }),
      () => provider.readFile(p('d/f.txt'), { maxBytes: 10 }),
      () => provider.writeFile(p('h1'), one, { overwrite: true }),
      () => provider.writeFile(p('fifo'), one, { overwrite: true }),
      () => provider.writeFile(p('d/f.txt'), one, { overwrite: true, expectedSha256: 'a'.repeat(64) }),
      () => provider.writeFile(p('d/f.txt'), one, { overwrite: false }),
      () => provider.writeFile(p('d/g.txt'), one, { overwrite: true, expectedSha256: 'missing' }),
      () => provider.writeFile(p('d'), one, { overwrite: true }),
      () => provider.writeFile(p('link/x'), one, { overwrite: true }),
      () => provider.writeFile(p('d/f.txt'), one, { overwrite: true }),
      () => provider.listDirectory(p('link'), { limit: 10 }),
      () => provider.listDirectory(p('d/f.txt'), { limit: 10 }),
      () => provider.listDirectory(p('d'), { limit: 1 }),
      () => provider.stat(p('link/x')),
      () => provider.stat(p('fifo')),
      () => provider.deleteFile(p('h1'), { missingOk: false }),
      () => provider.deleteFile(p('d'), { missingOk: false }),
      () => provider.deleteFile(p('d/g.txt'), { missingOk: false }),
      () => provider.deleteFile(p('zz/y'), { missingOk: true }),
      () => provider.deleteDirectory(p('d'), { recursive: false, missingOk: false }),
      () => provider.deleteDirectory(p('link'), { recursive: true, missingOk: false }),
      () => provider.deleteDirectory(p('d/f.txt'), { recursive: true, missingOk: false }),
      () => provider.makeDirectory(p('d'), { parents: false, existOk: false }),
      () => provider.makeDirectory(p('link/x'), { parents: true, existOk: true }),
      () => provider.hostPath?.(p('link')),
      () => provider.hostPath?.(p('d/f.txt')),
    ];
    const outcomes: string[] = [];
    for (const call of calls) outcomes.push(await outcome(call));
    // Calls in flight when close is asked for, and one after it.
    const inFlight = calls.map((call) => outcome(call));
    const closed = provider.close();
    const late = outcome(() => provider.readFile(p('d/f.txt'), { maxBytes: 10 }));
    await Promise.all([...inFlight, late, closed]);
    expect(await late).toBe('provider_failure');
    rmSync(at('t'), { recursive: true, force: true });
    return outcomes;
  };
  const first = await round(open());
  expect(first).toContain('protected_path');
  expect(new Set(first)).toEqual(
    new Set([
      'protected_path',
      'not_found',
      'hard_link_refused',
      'not_a_file',
      'symlink_refused',
      'not_a_directory',
      'ok',
      'content_conflict',
      'already_exists',
      'directory_not_empty',
    ]),
  );
  const before = openFds();
  for (let index = 0; index < 12; index++) await round(open());
  expect(openFds()).toBe(before);
});

it('deletes a tree 1,000 levels deep without running out of fds or stack', async () => {
  const { sandbox, open } = sandboxWithHook();
  const provider = open();
  mkdirSync(sandbox.at(`deep/${Array.from({ length: 999 }, () => 'd').join('/')}`), { recursive: true });
  writeFileSync(sandbox.at(`deep/${Array.from({ length: 500 }, () => 'd').join('/')}/f.txt`), 'x');
  const before = openFds();
  expect(await provider.deleteDirectory(p('deep'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
  expect(openFds()).toBe(before);
  expect(existsSync(sandbox.at('deep'))).toBe(false);
  await provider.close();
});

it('lists a directory whose entries are deleted while it is being scanned', async () => {
  // Thousands of creations are slow on a busy disk and this is not about the disk: tmpfs when present.
  const base = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'libos-local-'));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const hook: { at?: (step: ResolveStep) => void } = {};
  const provider = createLocalProviderWithHooks({ root: base }, { afterResolveStep: (step) => hook.at?.(step) });
  const many = join(base, 'many');
  mkdirSync(many);
  // More names than one scan slice (8,192), made and removed by coreutils to keep the test quick.
  execFileSync('sh', ['-c', 'seq 1 9000 | sed s/^/f/ | xargs touch'], { cwd: many });
  // The scan yields after a slice of names; everything is deleted in that pause.
  hook.at = (step) => {
    if (step.operation === 'listDirectory' && step.path === 'many') {
      setImmediate(() => execFileSync('find', ['.', '-type', 'f', '-delete'], { cwd: many }));
    }
  };
  const listing = await provider.listDirectory(p('many'), { limit: 10_000 });
  expect(listing.entries).toEqual([]);
  expect(readdirSync(many)).toEqual([]);
  await provider.close();
});

it('a second close waits, like the first, until the root fd is really closed', async () => {
  const sandbox = createSandbox();
  cleanups.push(() => sandbox.remove());
  const before = openFds();
  const provider = createLocalProvider({ root: sandbox.root });
  const writing = provider.writeFile(p('f.txt'), one, { overwrite: true });
  const first = provider.close();
  await provider.close();
  expect(openFds()).toBe(before);
  await Promise.all([writing, first]);
});
