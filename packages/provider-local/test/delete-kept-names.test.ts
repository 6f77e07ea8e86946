import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import type { ResolveStep } from '../src/testing.js';
import { expectFailure } from './expect-error.js';
import { OUTSIDE_CONTENT, createLocalTestbed, createSandbox, trackTestbeds } from './local-testbed.js';

// A recursive delete reads each directory once in its `.git` pre-scan, keeps those names for its
// first pass, and with `borrowWorkingDirectory` unlinks them inside the directory itself. What a user
// would notice if either went wrong: a name added or changed after the pre-scan left behind or
// followed, the host's own files (named like the tree's) deleted, the host's working directory seen
// moved while the delete yields, a mount point that appears meanwhile entered, or a cancelled delete
// not stopping. The mount test needs root (skipped elsewhere).

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const track = trackTestbeds();
// More names than one synchronous slice holds (ENTRIES_PER_SLICE), so the delete yields in between.
const MANY = 8192 + 500;

function bedWith(borrowWorkingDirectory: boolean, afterResolveStep?: (step: ResolveStep) => void) {
  return track(createLocalTestbed({ afterResolveStep: (step) => afterResolveStep?.(step) }, { borrowWorkingDirectory }));
}

function makeFiles(directory: string, count: number): void {
  mkdirSync(directory, { recursive: true });
  for (let index = 0; index < count; index++) closeSync(openSync(join(directory, `f${index}.txt`), 'wx'));
}

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = createSandbox();
  try {
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', probe.root], { stdio: 'ignore' });
    execFileSync('umount', [probe.root], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    probe.remove();
  }
}

const mountable = canMount();
const mounted: string[] = [];

const atEffect = (step: ResolveStep): boolean => step.operation === 'deleteDirectory' && step.stage === 'effect';

let home: string;
let removeHome: () => void;
const startedIn = process.cwd();

beforeEach(() => {
  // The host's own working directory holds names the trees below hold too.
  const own = createSandbox();
  home = realpathSync(own.base);
  removeHome = own.remove;
  writeFileSync(join(home, 'f0.txt'), 'HOME');
  writeFileSync(join(home, 'late.txt'), 'HOME');
  process.chdir(home);
});

afterEach(() => {
  // Unmounted before any sandbox is removed, so nothing behind a mount is ever deleted by cleanup.
  for (const target of mounted.splice(0).reverse()) execFileSync('umount', ['-l', target], { stdio: 'ignore' });
  process.chdir(startedIn);
  removeHome();
});

function expectHomeIntact(): void {
  expect(realpathSync('.')).toBe(home);
  expect(readFileSync('f0.txt', 'utf8')).toBe('HOME');
  expect(readFileSync('late.txt', 'utf8')).toBe('HOME');
}

describe.each([false, true])('a recursive delete (borrowWorkingDirectory: %s)', (borrow) => {
  it('deletes a tree of more names than a slice, and other code only ever sees the host working directory', async () => {
    const { sandbox, provider } = bedWith(borrow);
    makeFiles(sandbox.at('t/big'), MANY);
    makeFiles(sandbox.at('t/small/deeper'), 3);
    const seen = new Set<string>();
    let watching = true;
    const watch = (): void => {
      seen.add(realpathSync('.'));
      if (watching) setImmediate(watch);
    };
    setImmediate(watch);
    try {
      expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    } finally {
      watching = false;
    }
    expect(existsSync(sandbox.at('t'))).toBe(false);
    expect([...seen]).toEqual([home]);
    expectHomeIntact();
  }, 120_000);

  it('deletes names added after the pre-scan, which its kept names cannot hold', async () => {
    const { sandbox, provider } = bedWith(borrow, (step) => {
      if (!atEffect(step)) return;
      writeFileSync(sandbox.at('t/late.txt'), 'LATE');
      writeFileSync(sandbox.at('t/c/late.txt'), 'LATE');
      makeFiles(sandbox.at('t/new'), 2);
    });
    makeFiles(sandbox.at('t/c'), 2);
    expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(existsSync(sandbox.at('t'))).toBe(false);
    expectHomeIntact();
  }, 120_000);

  it('deletes a kept file name that became a directory, and a kept directory name that became a file', async () => {
    const { sandbox, provider } = bedWith(borrow, (step) => {
      if (!atEffect(step)) return;
      rmSync(sandbox.at('t/f0.txt'));
      makeFiles(sandbox.at('t/f0.txt'), 2);
      rmSync(sandbox.at('t/d'), { recursive: true });
      writeFileSync(sandbox.at('t/d'), 'NOW A FILE');
    });
    makeFiles(sandbox.at('t'), 2);
    makeFiles(sandbox.at('t/d'), 2);
    expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(existsSync(sandbox.at('t'))).toBe(false);
    expect(readFileSync(join(sandbox.outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE_CONTENT);
    expectHomeIntact();
  }, 120_000);

  it('stops between two slices when cancelled, says effect unknown, and leaves the rest', async () => {
    const controller = new AbortController();
    // Queued before the delete's first yield, so the abort lands right after its first slice.
    const { sandbox, provider } = bedWith(borrow, (step) => void (atEffect(step) && setImmediate(() => controller.abort())));
    makeFiles(sandbox.at('t'), MANY);
    const error = await expectFailure(
      provider.deleteDirectory(p('t'), { recursive: true, missingOk: false, signal: controller.signal }),
      'provider_failure',
      'unknown',
    );
    expect(error.details).toEqual({ path: 't', reason: 'cancelled' });
    const left = readdirSync(sandbox.at('t')).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(MANY);
    expectHomeIntact();
  }, 120_000);

  it.skipIf(!mountable)(
    'refuses a mount point that appears after the pre-scan (effect unknown), leaving what is behind it',
    async () => {
      const { sandbox, provider } = bedWith(borrow, (step) => {
        if (!atEffect(step)) return;
        const target = sandbox.at('t/c/m');
        execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', target], { stdio: 'ignore' });
        mounted.push(target);
        writeFileSync(join(target, 'behind.txt'), 'BEHIND');
      });
      makeFiles(sandbox.at('t/c/m'), 2);
      makeFiles(sandbox.at('t/c'), 2);
      await expectFailure(provider.deleteDirectory(p('t'), { recursive: true, missingOk: false }), 'symlink_refused', 'unknown');
      expect(readFileSync(sandbox.at('t/c/m/behind.txt'), 'utf8')).toBe('BEHIND');
      expectHomeIntact();
    },
    120_000,
  );
});
