import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TreeSearchAnswer, WorkspacePath } from '@libos/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalProvider } from '../src/index.js';
import { TABLE_AFTER_FILES } from '../src/search-tree.js';
import { createLocalProviderWithHooks } from '../src/testing.js';
import { OUTSIDE_CONTENT, createSandbox, type Sandbox } from './local-testbed.js';

// searchTree knows the mounts from /proc/self/mountinfo, read once per search, instead of asking
// each file's mount id: these attack that table with real mounts (root only; skipped elsewhere).

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'libos-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mounted: string[] = [];
const sandboxes: Sandbox[] = [];
const bind = (source: string, target: string) => {
  execFileSync('mount', ['--bind', source, target], { stdio: 'ignore' });
  mounted.push(target);
};
afterEach(() => {
  for (const target of mounted.splice(0).reverse()) execFileSync('umount', ['-l', target], { stdio: 'ignore' });
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

const query = { needles: [], alwaysNames: [], maxBytes: 4096, maxEntries: 1000, maxCarriedBytes: 1 << 24 };
// Enough files in `directory` for the search to read the table of mounts before it goes below it.
const sandbox = (directory = '.') => {
  const made = createSandbox();
  sandboxes.push(made);
  mkdirSync(join(made.root, directory), { recursive: true });
  for (let file = 0; file <= TABLE_AFTER_FILES; file++) writeFileSync(join(made.root, directory, `filler${file}`), 'filler');
  return made;
};
const readOf = (answer: TreeSearchAnswer, name: string) => {
  const entry = answer.entries.find((one) => one.name === name);
  expect(entry, name).toBeDefined();
  return entry!.read === undefined ? undefined : Buffer.from(entry!.read.bytes).toString('utf8');
};

describe.skipIf(!canMount())('searchTree and mounts (real mounts; skipped unless root can mount)', () => {
  it('a file bind-mounted over a name, from the same filesystem, is a candidate without bytes; its neighbours are read', async () => {
    const { root, outside } = sandbox();
    mkdirSync(join(root, 'z'));
    writeFileSync(join(root, 'z', 'mine.txt'), 'mine');
    writeFileSync(join(root, 'z', 'f.txt'), 'covered');
    bind(join(outside, 'secret.txt'), join(root, 'z', 'f.txt'));
    const provider = createLocalProvider({ root });
    const answer = await provider.searchTree!('.' as WorkspacePath, query);
    expect(readOf(answer, 'f.txt')).toBeUndefined();
    expect(answer.entries.find((entry) => entry.name === 'f.txt')?.candidate).toBe(true);
    expect(readOf(answer, 'mine.txt')).toBe('mine');
    await provider.close();
  });

  it('a file mounted twice on one name (the first covered) is a candidate without bytes', async () => {
    const { root, outside } = sandbox();
    mkdirSync(join(root, 'z'));
    writeFileSync(join(root, 'z', 'f.txt'), 'covered');
    writeFileSync(join(outside, 'second.txt'), OUTSIDE_CONTENT);
    bind(join(outside, 'secret.txt'), join(root, 'z', 'f.txt'));
    bind(join(outside, 'second.txt'), join(root, 'z', 'f.txt'));
    const provider = createLocalProvider({ root });
    const answer = await provider.searchTree!('.' as WorkspacePath, query);
    expect(readOf(answer, 'f.txt')).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain(OUTSIDE_CONTENT);
    await provider.close();
  });

  it('a file mounted while the search runs is never answered with the bytes behind the mount', async () => {
    const { root, outside } = sandbox('a');
    mkdirSync(join(root, 'a', 'deep'), { recursive: true });
    writeFileSync(join(root, 'a', 'deep', 'target.txt'), 'mine');
    // Mounted once the search holds `a/deep`, after it read the table of mounts and before it reads the target.
    const target = join(root, 'a', 'deep', 'target.txt');
    const provider = createLocalProviderWithHooks(
      { root },
      {
        afterResolveStep: (step) =>
          void (step.operation === 'searchTree' && step.path === 'a/deep' && mounted.length === 0 && bind(join(outside, 'secret.txt'), target)),
      },
    );
    const answer = await provider.searchTree!('a' as WorkspacePath, query);
    expect(mounted).toEqual([target]);
    expect(readOf(answer, 'target.txt')).toBeUndefined();
    expect(JSON.stringify(answer)).not.toContain(OUTSIDE_CONTENT);
    await provider.close();
  });
});
