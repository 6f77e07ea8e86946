import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { WorkspacePath } from '@libos/core';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed, fingerprintTree, trackTestbeds } from './local-testbed.js';

// A directory with more subdirectories than one batch holds is scanned and deleted a batch at a
// time, so memory stays bounded. What a user would notice if batching went wrong: subdirectories
// left behind, or a `.git` in a later batch missed by the pre-scan after something was deleted.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const track = trackTestbeds();
// A batch made small by the testing hook; more full batches than a delete has sweeps, and a partial one.
const BATCH = 64;
const DIRECTORIES = 5 * BATCH + 7;

function makeDirectories(parent: string): void {
  mkdirSync(parent, { recursive: true });
  for (let index = 0; index < DIRECTORIES; index++) {
    const directory = join(parent, `d${String(index).padStart(5, '0')}`);
    mkdirSync(directory);
    if (index % 97 === 0) writeFileSync(join(directory, 'f.txt'), 'x');
  }
  writeFileSync(join(parent, 'plain.txt'), 'x');
}

for (const borrowWorkingDirectory of [false, true]) {
  describe(`a recursive delete of a directory with ${DIRECTORIES} subdirectories${borrowWorkingDirectory ? ', borrowing the working directory' : ''}`, () => {
    it('removes every one of them, a batch at a time', async () => {
      const { sandbox, provider } = track(createLocalTestbed({ directoriesPerBatch: BATCH }, { borrowWorkingDirectory }));
      makeDirectories(sandbox.at('wide'));
      expect(await provider.deleteDirectory(p('wide'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
      expect(readdirSync(sandbox.root).filter((name) => name !== '.libos-staging')).toEqual([]);
    }, 60_000);

    it('refuses a .git in the last batch before deleting anything', async () => {
      const { sandbox, provider } = track(createLocalTestbed({ directoriesPerBatch: BATCH }, { borrowWorkingDirectory }));
      makeDirectories(sandbox.at('wide'));
      // The last name in byte order, so only the last batch of the pre-scan reaches it.
      mkdirSync(sandbox.at('wide/zz-last/.git'), { recursive: true });
      const before = fingerprintTree(sandbox.root);
      await expectFailure(provider.deleteDirectory(p('wide'), { recursive: true, missingOk: false }), 'protected_path');
      expect(fingerprintTree(sandbox.root)).toBe(before);
    }, 60_000);
  });
}
