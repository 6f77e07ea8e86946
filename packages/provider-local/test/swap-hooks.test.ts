import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import type { ResolveStep } from '../src/testing.js';
import { expectFailure } from './expect-error.js';
import { OUTSIDE_CONTENT, createLocalTestbed, fingerprintTree } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

// Deterministic versions of the races: a hook runs between two resolution steps and swaps a
// directory for a link to the outside directory exactly there.

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

interface Bed {
  sandbox: Sandbox;
  provider: FileSystemProviderV1;
  /** Runs `swap` once, at the first step matching `when`; tells afterwards whether it ran. */
  swapAt(when: (step: ResolveStep) => boolean, swap: () => void): { ran: () => boolean };
  outsideBefore: string;
}

let beds: Bed[] = [];
afterEach(async () => {
  for (const bed of beds) {
    expect(fingerprintTree(bed.sandbox.outside), 'the outside tree changed').toBe(bed.outsideBefore);
    await bed.provider.close();
    bed.sandbox.remove();
  }
  beds = [];
});

function openBed(files: Record<string, string>, borrowWorkingDirectory: boolean): Bed {
  let pending: { when: (step: ResolveStep) => boolean; swap: () => void; ran: boolean } | undefined;
  const { sandbox, provider } = createLocalTestbed(
    {
      afterResolveStep: (step) => {
        if (pending !== undefined && !pending.ran && pending.when(step)) {
          pending.ran = true;
          pending.swap();
        }
      },
    },
    { borrowWorkingDirectory },
  );
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(sandbox.at(path), '..'), { recursive: true });
    writeFileSync(sandbox.at(path), content);
  }
  // The outside twin of every inside name, so any escape would find something to read or delete.
  writeFileSync(join(sandbox.outside, 'directory', 'f.txt'), OUTSIDE_CONTENT);
  mkdirSync(join(sandbox.outside, 'directory', 'c'), { recursive: true });
  writeFileSync(join(sandbox.outside, 'directory', 'c', 'f.txt'), OUTSIDE_CONTENT);
  const result: Bed = {
    sandbox,
    provider,
    swapAt(when, swap) {
      const entry = { when, swap, ran: false };
      pending = entry;
      return { ran: () => entry.ran };
    },
    outsideBefore: fingerprintTree(sandbox.outside),
  };
  beds.push(result);
  return result;
}

/** Moves the directory at `path` aside (inside the workspace) and puts a link to the outside directory in its place. */
function swapForLink(sandbox: Sandbox, path: string): void {
  renameSync(sandbox.at(path), sandbox.at(`${path}.moved`));
  symlinkSync(join(sandbox.outside, 'directory'), sandbox.at(path));
}

const at =
  (operation: string, path: string, stage: ResolveStep['stage'] = 'walk') =>
  (step: ResolveStep) =>
    step.operation === operation && step.path === path && step.stage === stage;

// Every race twice: entries named through /proc/self/fd, and inside a borrowed working directory.
for (const borrowWorkingDirectory of [false, true]) {
  const bed = (files: Record<string, string>): Bed => openBed(files, borrowWorkingDirectory);
  describe(borrowWorkingDirectory ? 'borrowing the working directory' : 'through /proc/self/fd', () => {
    describe('a directory swapped for a link between resolution steps', () => {
      it('read: the next component is a link now, so the read is refused', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/c/f.txt': 'INSIDE' });
        const swap = swapAt(at('readFile', 'a'), () => swapForLink(sandbox, 'a/b'));
        await expectFailure(provider.readFile(p('a/b/c/f.txt'), { maxBytes: 100 }), 'symlink_refused');
        expect(swap.ran()).toBe(true);
      });

      it('read: an already pinned directory moved away keeps being read, never the link put in its place', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/c/f.txt': 'INSIDE' });
        const swap = swapAt(at('readFile', 'a/b'), () => swapForLink(sandbox, 'a/b'));
        const read = await provider.readFile(p('a/b/c/f.txt'), { maxBytes: 100 });
        expect(swap.ran()).toBe(true);
        expect(text(read.bytes)).toBe('INSIDE');
      });

      it('read: the leaf swapped for a link after its parent is pinned is refused', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/f.txt': 'INSIDE' });
        swapAt(at('readFile', 'a'), () => {
          unlinkSync(sandbox.at('a/f.txt'));
          symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('a/f.txt'));
        });
        await expectFailure(provider.readFile(p('a/f.txt'), { maxBytes: 100 }), 'symlink_refused');
      });

      it('list: a pinned directory swapped for a link is still the one listed', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/inside.txt': 'INSIDE' });
        swapAt(at('listDirectory', 'a/b'), () => swapForLink(sandbox, 'a/b'));
        const listing = await provider.listDirectory(p('a/b'), { limit: 10 });
        expect(listing.entries.map((entry) => entry.name)).toEqual(['inside.txt']);
        expect(listing.entries[0]?.path).toBe('a/b/inside.txt');
      });

      it('list: a directory swapped before it is pinned is refused', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/inside.txt': 'INSIDE' });
        swapAt(at('listDirectory', 'a'), () => swapForLink(sandbox, 'a/b'));
        await expectFailure(provider.listDirectory(p('a/b'), { limit: 10 }), 'symlink_refused');
      });

      it('write: a parent swapped after it is pinned receives the file; the outside does not', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/keep.txt': 'INSIDE' });
        swapAt(at('writeFile', 'a/b'), () => swapForLink(sandbox, 'a/b'));
        await provider.writeFile(p('a/b/f.txt'), new TextEncoder().encode('NEW'), { overwrite: true });
        expect(readFileSync(sandbox.at('a/b.moved/f.txt'), 'utf8')).toBe('NEW');
      });

      it('write: a parent swapped before it is pinned is refused, even when parents are created', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/keep.txt': 'INSIDE' });
        swapAt(at('writeFile', 'a'), () => swapForLink(sandbox, 'a/b'));
        await expectFailure(provider.writeFile(p('a/b/c/f.txt'), new Uint8Array([1]), { overwrite: true }), 'symlink_refused');
      });

      it('write: the target swapped for a link just before the rename is replaced as a name, never written through', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/f.txt': 'OLD' });
        swapAt(at('writeFile', 'a', 'effect'), () => {
          unlinkSync(sandbox.at('a/f.txt'));
          symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('a/f.txt'));
        });
        await expectFailure(provider.writeFile(p('a/f.txt'), new Uint8Array([1]), { overwrite: true }), 'changed_during_operation');
        expect(lstatSync(sandbox.at('a/f.txt')).isSymbolicLink()).toBe(true);
      });

      it('write: a new target created as a link just before the rename is replaced by the file', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/keep.txt': 'x' });
        swapAt(at('writeFile', 'a', 'effect'), () => symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('a/f.txt')));
        await provider.writeFile(p('a/f.txt'), new TextEncoder().encode('NEW'), { overwrite: true });
        expect(lstatSync(sandbox.at('a/f.txt')).isFile()).toBe(true);
        expect(readFileSync(sandbox.at('a/f.txt'), 'utf8')).toBe('NEW');
      });

      it('write: overwrite false loses to a racing creator, whose file survives', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/keep.txt': 'x' });
        swapAt(at('writeFile', 'a', 'effect'), () => writeFileSync(sandbox.at('a/f.txt'), 'RACER'));
        await expectFailure(provider.writeFile(p('a/f.txt'), new Uint8Array([1]), { overwrite: false }), 'already_exists');
        expect(readFileSync(sandbox.at('a/f.txt'), 'utf8')).toBe('RACER');
      });

      it('write: a racing creator after a "missing" expectation is a conflict, and its file survives', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/keep.txt': 'x' });
        swapAt(at('writeFile', 'a', 'effect'), () => symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('a/f.txt')));
        await expectFailure(
          provider.writeFile(p('a/f.txt'), new Uint8Array([1]), { overwrite: true, expectedSha256: 'missing' }),
          'content_conflict',
        );
        expect(lstatSync(sandbox.at('a/f.txt')).isSymbolicLink()).toBe(true);
      });

      // The expectation is checked, under the host-wide name lock, on what the name holds at that
      // moment: a file swapped in before the check is the current file, judged by its own bytes.
      it('write: a hash expectation is checked on the file the name holds at the check, not on the one probed first', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/f.txt': 'OLD' });
        const { createHash } = await import('node:crypto');
        swapAt(at('writeFile', 'a', 'effect'), () => {
          renameSync(sandbox.at('a/f.txt'), sandbox.at('a/old.txt'));
          writeFileSync(sandbox.at('a/f.txt'), 'SWAPPED');
        });
        const sha = createHash('sha256').update('OLD').digest('hex');
        await expectFailure(provider.writeFile(p('a/f.txt'), new Uint8Array([1]), { overwrite: true, expectedSha256: sha }), 'content_conflict');
        expect(readFileSync(sandbox.at('a/f.txt'), 'utf8')).toBe('SWAPPED');
        expect(readFileSync(sandbox.at('a/old.txt'), 'utf8')).toBe('OLD');
        swapAt(at('writeFile', 'a', 'effect'), () => {
          renameSync(sandbox.at('a/f.txt'), sandbox.at('a/swapped.txt'));
          writeFileSync(sandbox.at('a/f.txt'), 'OLD');
        });
        expect(await provider.writeFile(p('a/f.txt'), new Uint8Array([0x4e]), { overwrite: true, expectedSha256: sha })).toEqual({ created: false });
        expect(readFileSync(sandbox.at('a/f.txt'), 'utf8')).toBe('N');
      });

      it('mkdir: a parent swapped after it is pinned receives the directory', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/keep.txt': 'x' });
        swapAt(at('makeDirectory', 'a/b'), () => swapForLink(sandbox, 'a/b'));
        expect(await provider.makeDirectory(p('a/b/c/new'), { parents: true, existOk: false })).toEqual({ created: true });
        expect(lstatSync(sandbox.at('a/b.moved/c/new')).isDirectory()).toBe(true);
      });

      it('mkdir: a parent swapped before it is pinned is refused', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/b/keep.txt': 'x' });
        swapAt(at('makeDirectory', 'a'), () => swapForLink(sandbox, 'a/b'));
        await expectFailure(provider.makeDirectory(p('a/b/c'), { parents: true, existOk: true }), 'symlink_refused');
      });

      it('delete file: the target swapped for a link is unlinked as a link; the outside file stays', async () => {
        const { sandbox, provider, swapAt } = bed({ 'a/f.txt': 'INSIDE' });
        swapAt(at('deleteFile', 'a', 'effect'), () => {
          unlinkSync(sandbox.at('a/f.txt'));
          symlinkSync(join(sandbox.outside, 'secret.txt'), sandbox.at('a/f.txt'));
        });
        expect(await provider.deleteFile(p('a/f.txt'), { missingOk: false })).toEqual({ deleted: true });
        expect(existsSync(sandbox.at('a/f.txt'))).toBe(false);
      });
    });

    describe('a recursive delete raced between its steps', () => {
      const tree = { 'p/a.txt': 'a', 'p/c/f.txt': 'INSIDE', 'p/d/e/f.txt': 'INSIDE', 'p/d/g.txt': 'g' };

      it('a .git appearing after the pre-scan stops it with protected_path, effect unknown', async () => {
        const { sandbox, provider, swapAt } = bed(tree);
        swapAt(at('deleteDirectory', '.', 'effect'), () => mkdirSync(sandbox.at('p/d/e/.git')));
        await expectFailure(provider.deleteDirectory(p('p'), { recursive: true, missingOk: false }), 'protected_path', 'unknown');
        expect(existsSync(sandbox.at('p/d/e/.git'))).toBe(true);
      });

      it('a subdirectory swapped for a link before it is entered is unlinked, not followed', async () => {
        const { sandbox, provider, swapAt } = bed(tree);
        swapAt(at('deleteDirectory', '.', 'effect'), () => {
          rmSync(sandbox.at('p/c'), { recursive: true });
          symlinkSync(join(sandbox.outside, 'directory'), sandbox.at('p/c'));
        });
        expect(await provider.deleteDirectory(p('p'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
        expect(existsSync(sandbox.at('p'))).toBe(false);
      });

      it('a directory being emptied that is swapped for a link is never removed through it', async () => {
        const { sandbox, provider, swapAt } = bed(tree);
        swapAt(
          (step) => step.operation === 'deleteDirectory' && step.path.startsWith('p/'),
          () => {
            const path = 'p/c';
            renameSync(sandbox.at(path), sandbox.at('p-moved'));
            symlinkSync(join(sandbox.outside, 'directory'), sandbox.at(path));
          },
        );
        await expectFailure(provider.deleteDirectory(p('p'), { recursive: true, missingOk: false }), 'changed_during_operation', 'unknown');
        expect(lstatSync(sandbox.at('p/c')).isSymbolicLink()).toBe(true);
      });

      it('the target itself swapped after the pre-scan is never removed through the link', async () => {
        const { sandbox, provider, swapAt } = bed(tree);
        swapAt(at('deleteDirectory', '.', 'effect'), () => swapForLink(sandbox, 'p'));
        await expectFailure(provider.deleteDirectory(p('p'), { recursive: true, missingOk: false }), 'changed_during_operation', 'unknown');
        expect(lstatSync(sandbox.at('p')).isSymbolicLink()).toBe(true);
      });

      it('a non-recursive delete of a directory swapped for another is refused', async () => {
        const { sandbox, provider, swapAt } = bed({ 'p/keep.txt': 'x' });
        mkdirSync(sandbox.at('q'));
        swapAt(at('deleteDirectory', '.', 'effect'), () => {
          renameSync(sandbox.at('q'), sandbox.at('q.moved'));
          mkdirSync(sandbox.at('q'));
        });
        await expectFailure(provider.deleteDirectory(p('q'), { recursive: false, missingOk: false }), 'changed_during_operation');
        expect(existsSync(sandbox.at('q'))).toBe(true);
      });
    });
  });
}
