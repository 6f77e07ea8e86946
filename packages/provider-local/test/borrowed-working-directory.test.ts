import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { FdPaths } from '../src/fd-paths.js';
import { DIRECTORY_HANDLE } from '../src/host-flags.js';
import { createLocalProvider } from '../src/index.js';
import { OUTSIDE_CONTENT, createSandbox } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// `borrowWorkingDirectory` lets a synchronous step run inside the pinned directory. What a user
// would notice if it went wrong: the host's working directory moved, a relative path of the host
// reading the workspace, or a name resolved through a path an attacker swapped.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);

let sandbox: Sandbox;
let home: string;
const startedIn = process.cwd();

beforeEach(() => {
  sandbox = createSandbox();
  // The host's own working directory, holding a file the workspace also has a name for.
  home = join(sandbox.base, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'f.txt'), 'HOME');
  process.chdir(home);
});

afterEach(() => {
  process.chdir(startedIn);
  sandbox.remove();
});

function expectHomeIntact(): void {
  expect(realpathSync('.')).toBe(realpathSync(home));
  expect(readFileSync('f.txt', 'utf8')).toBe('HOME');
}

describe('a provider borrowing the working directory', () => {
  it('gives the host its working directory back after every call, failed ones included', async () => {
    const provider = createLocalProvider({ root: sandbox.root, borrowWorkingDirectory: true });
    try {
      mkdirSync(sandbox.at('d/e'), { recursive: true });
      for (let index = 0; index < 50; index++) writeFileSync(sandbox.at(`d/f${index}.txt`), 'INSIDE');
      writeFileSync(sandbox.at('f.txt'), 'INSIDE');
      const listing = await provider.listDirectory(p('d'), { limit: 100 });
      expect(listing.entries.map((entry) => entry.name)).toContain('f0.txt');
      expectHomeIntact();
      await expect(provider.listDirectory(p('missing'), { limit: 10 })).rejects.toMatchObject({ code: 'not_found' });
      expectHomeIntact();
      await provider.writeFile(p('d/new.txt'), new TextEncoder().encode('NEW'), { overwrite: false });
      expectHomeIntact();
      await provider.rename?.(p('d/new.txt'), p('d/moved.txt'), { overwrite: false });
      expectHomeIntact();
      expect(await provider.deleteDirectory(p('d'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
      expectHomeIntact();
      expect(new TextDecoder().decode((await provider.readFile(p('f.txt'), { maxBytes: 100 })).bytes)).toBe('INSIDE');
      expectHomeIntact();
    } finally {
      await provider.close();
    }
  });

  it('lists exactly what the default provider lists, raw-byte names included', async () => {
    writeFileSync(Buffer.concat([Buffer.from(`${sandbox.root}/f`), Buffer.from([0xff]), Buffer.from('x')]), 'RAW');
    writeFileSync(sandbox.at('plain.txt'), '12345');
    writeFileSync(sandbox.at('é.txt'), '1');
    symlinkSync(sandbox.outside, sandbox.at('link'));
    mkdirSync(sandbox.at('dir'));
    const borrowing = createLocalProvider({ root: sandbox.root, borrowWorkingDirectory: true });
    const plain = createLocalProvider({ root: sandbox.root });
    try {
      const seen = await borrowing.listDirectory(ROOT_PATH, { limit: 100 });
      expect(seen).toEqual(await plain.listDirectory(ROOT_PATH, { limit: 100 }));
      expect(seen.entries.map((entry) => [entry.name, entry.kind, entry.sizeBytes])).toEqual([
        ['dir', 'directory', null],
        ['f\uFFFDx', 'file', 3],
        ['link', 'symlink', null],
        ['plain.txt', 'file', 5],
        ['é.txt', 'file', 1],
      ]);
      expectHomeIntact();
    } finally {
      await borrowing.close();
      await plain.close();
    }
  });
});

describe('FdPaths.within', () => {
  it('resolves names in the pinned directory even after its path was swapped for a link to the outside', () => {
    mkdirSync(sandbox.at('zone'));
    writeFileSync(sandbox.at('zone/secret.txt'), 'INSIDE');
    const fd = openSync(sandbox.at('zone'), DIRECTORY_HANDLE);
    try {
      renameSync(sandbox.at('zone'), sandbox.at('zone.moved'));
      symlinkSync(sandbox.outside, sandbox.at('zone'));
      const read = new FdPaths('/proc/self/fd', true).within(fd, (name) => readFileSync(name('secret.txt'), 'utf8'));
      expect(read).toBe('INSIDE');
      expect(read).not.toBe(OUTSIDE_CONTENT);
      expectHomeIntact();
    } finally {
      closeSync(fd);
    }
  });

  it('gives the working directory back when the step throws', () => {
    const fd = openSync(sandbox.root, DIRECTORY_HANDLE);
    try {
      const paths = new FdPaths('/proc/self/fd', true);
      expect(() =>
        paths.within(fd, () => {
          expect(realpathSync('.')).toBe(realpathSync(sandbox.root));
          throw new Error('step failed');
        }),
      ).toThrow('step failed');
      expectHomeIntact();
    } finally {
      closeSync(fd);
    }
  });

  it('names entries by /proc/self/fd paths, and never moves, when borrowing is off', () => {
    const fd = openSync(sandbox.root, DIRECTORY_HANDLE);
    try {
      const named = new FdPaths('/proc/self/fd', false).within(fd, (name) => (expectHomeIntact(), name('f.txt')));
      expect(named).toBe(`/proc/self/fd/${fd}/f.txt`);
    } finally {
      closeSync(fd);
    }
  });
});
