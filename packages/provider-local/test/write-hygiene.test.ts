import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import type { ResolveStep } from '../src/testing.js';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed, fingerprintTree, hostNames, trackTestbeds } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

interface Bed {
  sandbox: Sandbox;
  provider: FileSystemProviderV1;
  /** Runs `action` once, just before the effect of the next write. */
  beforeEffect(action: () => void): void;
}

const track = trackTestbeds();

function bed(): Bed {
  let pending: (() => void) | undefined;
  const hook = (step: ResolveStep) => {
    if (step.stage !== 'effect' || pending === undefined) return;
    const action = pending;
    pending = undefined;
    action();
  };
  const { sandbox, provider } = createLocalTestbed({ afterResolveStep: hook });
  const created: Bed = { sandbox, provider, beforeEffect: (action) => (pending = action) };
  track(created);
  return created;
}

/** Every name in the tree, so a leftover temporary file of any name shows (an empty staging directory is left out). */
const namesBelow = (directory: string): string[] => hostNames(directory, { recursive: true });

describe('mode bits of a replaced file', () => {
  it('keeps an executable executable', async () => {
    const { sandbox, provider } = bed();
    writeFileSync(sandbox.at('run.sh'), '#!/bin/sh\n');
    chmodSync(sandbox.at('run.sh'), 0o755);
    await provider.writeFile(p('run.sh'), bytes('#!/bin/sh\necho new\n'), { overwrite: true });
    expect((lstatSync(sandbox.at('run.sh')).mode & 0o7777).toString(8)).toBe('755');
  });

  it('keeps modes the umask would take away, and tighter ones, exactly, whatever the umask', async () => {
    const { sandbox, provider } = bed();
    const umask = process.umask(0o077);
    try {
      for (const mode of [0o666, 0o777, 0o1777, 0o644, 0o600, 0o444, 0o000]) {
        writeFileSync(sandbox.at('kept'), 'old');
        chmodSync(sandbox.at('kept'), mode);
        await provider.writeFile(p('kept'), bytes(`new ${mode}`), { overwrite: true });
        expect((lstatSync(sandbox.at('kept')).mode & 0o7777).toString(8), mode.toString(8)).toBe(mode.toString(8));
        // (A file without owner read is unreadable here unless the tests run as root.)
        if (mode & 0o400) expect(readFileSync(sandbox.at('kept'), 'utf8')).toBe(`new ${mode}`);
      }
      // A new file gets the default, 0666 less the umask.
      await provider.writeFile(p('fresh'), bytes('x'), { overwrite: false });
      expect((lstatSync(sandbox.at('fresh')).mode & 0o7777).toString(8)).toBe('600');
    } finally {
      process.umask(umask);
    }
  });

  it('drops setuid and setgid: new bytes, and the file may now belong to another user, so the privilege is not carried over', async () => {
    const { sandbox, provider } = bed();
    for (const mode of [0o4755, 0o2755, 0o6711]) {
      writeFileSync(sandbox.at('tool'), 'old');
      chmodSync(sandbox.at('tool'), mode);
      await provider.writeFile(p('tool'), bytes('new'), { overwrite: true });
      expect((lstatSync(sandbox.at('tool')).mode & 0o7777).toString(8)).toBe((mode & 0o777).toString(8));
    }
  });
});

describe('no temporary file outlives a write that failed or was refused', () => {
  it('after a hash mismatch, an overwrite: false refusal, and refused targets', async () => {
    const { sandbox, provider } = bed();
    writeFileSync(sandbox.at('f.txt'), 'old');
    mkdirSync(sandbox.at('dir'));
    await expectFailure(provider.writeFile(p('f.txt'), bytes('new'), { overwrite: true, expectedSha256: 'a'.repeat(64) }), 'content_conflict');
    await expectFailure(provider.writeFile(p('f.txt'), bytes('new'), { overwrite: false }), 'already_exists');
    await expectFailure(provider.writeFile(p('dir'), bytes('new'), { overwrite: true }), 'not_a_file');
    expect(namesBelow(sandbox.root)).toEqual(['dir', 'f.txt']);
    expect(readFileSync(sandbox.at('f.txt'), 'utf8')).toBe('old');
  });

  it('when the target is swapped for a directory just before the rename', async () => {
    const { sandbox, provider, beforeEffect } = bed();
    writeFileSync(sandbox.at('f.txt'), 'old');
    beforeEffect(() => {
      unlinkSync(sandbox.at('f.txt'));
      mkdirSync(sandbox.at('f.txt'));
    });
    await expectFailure(provider.writeFile(p('f.txt'), bytes('new'), { overwrite: true }), 'changed_during_operation');
    beforeEffect(() => mkdirSync(sandbox.at('g.txt')));
    await expectFailure(provider.writeFile(p('g.txt'), bytes('new'), { overwrite: true }), 'not_a_file');
    expect(namesBelow(sandbox.root)).toEqual(['f.txt', 'g.txt']);
  });

  it('when the parent is swapped for a link between the temporary write and the rename', async () => {
    const { sandbox, provider, beforeEffect } = bed();
    mkdirSync(sandbox.at('sub'));
    writeFileSync(sandbox.at('sub/f.txt'), 'old');
    const outsideBefore = fingerprintTree(sandbox.outside);
    beforeEffect(() => {
      renameSync(sandbox.at('sub'), sandbox.at('sub.moved'));
      symlinkSync(join(sandbox.outside, 'directory'), sandbox.at('sub'));
    });
    await provider.writeFile(p('sub/f.txt'), bytes('new'), { overwrite: true });
    expect(readFileSync(sandbox.at('sub.moved/f.txt'), 'utf8')).toBe('new');
    expect(namesBelow(sandbox.at('sub.moved'))).toEqual(['f.txt']);
    expect(fingerprintTree(sandbox.outside)).toBe(outsideBefore);
  });
});
