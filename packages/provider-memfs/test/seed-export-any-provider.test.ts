// seedWorkspace and exportWorkspace of @libos/provider-kit work on any provider: a host tree goes
// into a memfs workspace through the provider's own calls and comes back out with its bytes and modes.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT_PATH } from '@libos/core';
import { exportWorkspace, seedWorkspace } from '@libos/provider-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemfsProvider } from '../src/index.js';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function hostDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'libos-seed-export-'));
  made.push(directory);
  return directory;
}

describe('seedWorkspace and exportWorkspace over memfs', () => {
  it('carry a tree, its bytes and its file modes both ways', async () => {
    const seed = hostDirectory();
    mkdirSync(join(seed, 'src/deep'), { recursive: true });
    writeFileSync(join(seed, 'src/deep/run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(join(seed, 'src/deep/run.sh'), 0o750);
    writeFileSync(join(seed, 'secret.txt'), 'only mine');
    chmodSync(join(seed, 'secret.txt'), 0o600);
    const provider = createMemfsProvider();
    expect(await seedWorkspace(provider, seed)).toEqual({ files: 2, directories: 2 });

    const target = join(hostDirectory(), 'out');
    expect(await exportWorkspace(provider, target)).toEqual({ files: 2, directories: 2, bytes: 27 });
    expect(readFileSync(join(target, 'src/deep/run.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect((lstatSync(join(target, 'src/deep/run.sh')).mode & 0o777).toString(8)).toBe('750');
    expect((lstatSync(join(target, 'secret.txt')).mode & 0o777).toString(8)).toBe('600');
    await provider.close();
  });

  it('refuses a seed holding a link before writing anything, and an export into a non-empty directory', async () => {
    const seed = hostDirectory();
    writeFileSync(join(seed, 'a.txt'), 'a');
    symlinkSync('/etc/passwd', join(seed, 'z-link'));
    const provider = createMemfsProvider();
    await expect(seedWorkspace(provider, seed)).rejects.toThrow(/z-link is a symbolic link/);
    expect((await provider.listDirectory(ROOT_PATH, { limit: 10 })).entries).toEqual([]);

    const target = hostDirectory();
    writeFileSync(join(target, 'keep.txt'), 'keep');
    await expect(exportWorkspace(provider, target)).rejects.toThrow(/is not empty/);
    expect(readdirSync(target)).toEqual(['keep.txt']);
    await provider.close();
  });
});
