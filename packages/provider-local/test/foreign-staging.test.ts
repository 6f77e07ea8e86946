import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import { createLocalProvider } from '../src/index.js';
import { expectFailure } from './expect-error.js';
import { STAGING, createSandbox } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// L03: in a sticky world-writable root (a /tmp-like directory), another local user can make
// `.libos-staging` before the provider does. The provider must refuse to start, naming the
// directory and what to do, rather than start and fail every write (or write into their directory).

const NOBODY = 65534;
const p = (text: string) => resolveWorkspacePath(ROOT_PATH, text);
const sandboxes: Sandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.remove();
});

function stickyRoot(): Sandbox {
  const sandbox = createSandbox();
  sandboxes.push(sandbox);
  chmodSync(sandbox.root, 0o1777);
  return sandbox;
}

function refusedAtStart(sandbox: Sandbox, why: RegExp): void {
  let caught: unknown;
  try {
    createLocalProvider({ root: sandbox.root });
  } catch (error) {
    caught = error;
  }
  expect(caught).toMatchObject({ code: 'provider_failure', effect: 'none' });
  const message = (caught as Error).message;
  expect(message).toContain(`${sandbox.root}/${STAGING}`);
  expect(message).toMatch(why);
  expect(message).toMatch(/Remove it/);
}

describe('a staging directory another user made first is refused at start', () => {
  it.skipIf(process.geteuid?.() !== 0)('owned by nobody in a sticky 1777 root', () => {
    const sandbox = stickyRoot();
    mkdirSync(sandbox.at(STAGING), 0o700);
    chownSync(sandbox.at(STAGING), NOBODY, NOBODY);
    refusedAtStart(sandbox, /belongs to uid 65534/);
    // Nothing was made in their directory.
    expect(readdirSync(sandbox.at(STAGING))).toEqual([]);
  });

  it.skipIf(process.geteuid?.() !== 0)('owned by nobody and open to all (1777), as a squatter would leave it', () => {
    const sandbox = stickyRoot();
    mkdirSync(sandbox.at(STAGING));
    chmodSync(sandbox.at(STAGING), 0o1777);
    chownSync(sandbox.at(STAGING), NOBODY, NOBODY);
    refusedAtStart(sandbox, /belongs to uid 65534/);
  });

  it('a link in its place, even to a directory of ours', () => {
    const sandbox = stickyRoot();
    mkdirSync(sandbox.at('elsewhere'), 0o700);
    symlinkSync(sandbox.at('elsewhere'), sandbox.at(STAGING));
    refusedAtStart(sandbox, /not a directory/);
    expect(readdirSync(sandbox.at('elsewhere'))).toEqual([]);
  });

  it('ours, but with group or other bits (someone may already have put entries in it)', () => {
    const sandbox = stickyRoot();
    mkdirSync(sandbox.at(STAGING));
    chmodSync(sandbox.at(STAGING), 0o733);
    refusedAtStart(sandbox, /mode is 733/);
  });

  it.skipIf(process.geteuid?.() !== 0)('one planted after start is refused by the first write, which changes nothing', async () => {
    const sandbox = stickyRoot();
    const provider = createLocalProvider({ root: sandbox.root });
    try {
      mkdirSync(sandbox.at(STAGING), 0o777);
      chownSync(sandbox.at(STAGING), NOBODY, NOBODY);
      const error = await expectFailure(provider.writeFile(p('f.txt'), new Uint8Array([1]), { overwrite: true }), 'provider_failure');
      expect(error.message).toContain(`${sandbox.root}/${STAGING}`);
      expect(readdirSync(sandbox.root)).toEqual([STAGING]);
      expect(readdirSync(sandbox.at(STAGING))).toEqual([]);
    } finally {
      await provider.close();
    }
  });

  it('with none there, a sticky root works and the staging directory is made owner-only', async () => {
    const sandbox = stickyRoot();
    const provider = createLocalProvider({ root: sandbox.root });
    try {
      await provider.writeFile(p('f.txt'), new Uint8Array([1]), { overwrite: true });
      const status = lstatSync(sandbox.at(STAGING));
      expect(status.isDirectory()).toBe(true);
      expect(status.mode & 0o777).toBe(0o700);
      expect(status.uid).toBe(process.geteuid?.());
    } finally {
      await provider.close();
    }
    // Our own staging directory is trusted at the next start.
    await createLocalProvider({ root: sandbox.root }).close();
  });
});
