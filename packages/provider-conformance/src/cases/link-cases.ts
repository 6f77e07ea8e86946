import { LibosError } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectIsoTime, expectUnchanged, text } from './case-helpers.js';
import { linkKinds, linkPrecondition } from './preconditions.js';

const symlinks = { capabilities: ['symlinks'] } as const;
const hardLinks = { capabilities: ['hardLinks'] } as const;

/** What symbolic links are allowed to do: be observed as links, listed, and unlinked by a recursive delete. */
export const symlinkCases: readonly ConformanceCase[] = [
  ...linkKinds.flatMap((kind) =>
    (['as a root child', 'as a nested target'] as const).map((position) =>
      defineCase(
        'symlinks',
        `stat of a link ${kind} ${position} reports kind symlink`,
        async (context) => {
          const target = await linkPrecondition(kind, position).setup(context.fixtures);
          const status = await expectUnchanged(context, [target], () => context.provider.stat(context.path(target)));
          expect(status.kind).toBe('symlink');
          expect(status.sizeBytes).toBeNull();
          context.expectClean(status);
        },
        symlinks,
      ),
    ),
  ),
  defineCase(
    'symlinks',
    'listing shows every link as kind symlink without following it',
    async (context) => {
      const { fixtures, provider, path } = context;
      await fixtures.writeFile('inside.txt', 'inside');
      await fixtures.writeFile('insidedir/x', 'inside');
      await fixtures.makeDirectory('links');
      await fixtures.symlink('links/dangling', '../nowhere');
      await fixtures.symlink('links/dir-in', '../insidedir');
      await fixtures.symlink('links/dir-out', fixtures.outside.directoryTarget('links'));
      await fixtures.symlink('links/file-in', '../inside.txt');
      await fixtures.symlink('links/file-out', fixtures.outside.fileTarget('links'));
      await fixtures.symlink('links/loop-a', 'loop-b');
      await fixtures.symlink('links/loop-b', 'loop-a');
      await fixtures.symlink('links/self', 'self');
      const listing = await expectUnchanged(context, [], () => provider.listDirectory(path('links'), { limit: 100 }));
      expect(listing.entries.map(({ name, path: entryPath, kind, sizeBytes }) => [name, entryPath, kind, sizeBytes])).toEqual(
        ['dangling', 'dir-in', 'dir-out', 'file-in', 'file-out', 'loop-a', 'loop-b', 'self'].map((name) => [name, `links/${name}`, 'symlink', null]),
      );
      for (const entry of listing.entries) expectIsoTime(entry.modifiedAt);
      context.expectClean(listing);
    },
    symlinks,
  ),
  defineCase(
    'symlinks',
    'recursive delete unlinks links in the tree and leaves their targets',
    async (context) => {
      const { fixtures, provider, path } = context;
      await fixtures.writeFile('inside.txt', 'inside');
      await fixtures.writeFile('insidedir/x', 'inside');
      await fixtures.writeFile('tree/real/file.txt', 'x');
      await fixtures.symlink('tree/file-in', '../inside.txt');
      await fixtures.symlink('tree/real/dir-in', '../../insidedir');
      await fixtures.symlink('tree/real/dir-out', fixtures.outside.directoryTarget('tree/real'));
      await fixtures.symlink('tree/file-out', fixtures.outside.fileTarget('tree'));
      await fixtures.symlink('tree/dangling', 'nowhere');
      await fixtures.symlink('tree/self', 'self');
      await fixtures.symlink('tree/to-sibling-in-tree', 'real');
      const outside = await fixtures.outside.fingerprint();
      expect(await provider.deleteDirectory(path('tree'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
      expect(await fixtures.kindOf('tree')).toBe('missing');
      expect(text(await fixtures.readFile('inside.txt'))).toBe('inside');
      expect(text(await fixtures.readFile('insidedir/x'))).toBe('inside');
      expect(await fixtures.outside.fingerprint()).toBe(outside);
    },
    symlinks,
  ),
  defineCase(
    'symlinks',
    'recursive delete of a directory holding only links removes it and leaves the targets',
    async (context) => {
      const { fixtures, provider, path } = context;
      await fixtures.writeFile('inside.txt', 'inside');
      await fixtures.writeFile('insidedir/x', 'inside');
      await fixtures.makeDirectory('links');
      await fixtures.symlink('links/dir-in', '../insidedir');
      await fixtures.symlink('links/file-in', '../inside.txt');
      await fixtures.symlink('links/dir-out', fixtures.outside.directoryTarget('links'));
      await fixtures.symlink('links/dangling', 'nowhere');
      const outside = await fixtures.outside.fingerprint();
      expect(await provider.deleteDirectory(path('links'), { recursive: true, missingOk: true })).toEqual({ deleted: true });
      expect(await fixtures.kindOf('links')).toBe('missing');
      expect(text(await fixtures.readFile('inside.txt'))).toBe('inside');
      expect(text(await fixtures.readFile('insidedir/x'))).toBe('inside');
      expect(await fixtures.outside.fingerprint()).toBe(outside);
    },
    symlinks,
  ),
];

/** What hard-linked files are allowed to do: be observed and listed as files; deletes never lose the other name. */
export const hardLinkCases: readonly ConformanceCase[] = [
  defineCase(
    'hard links',
    'stat and listing report each name as a file with its size',
    async (context) => {
      await context.fixtures.writeFile('d/one', 'shared');
      await context.fixtures.hardLink('d/one', 'd/two');
      const listing = await expectUnchanged(context, [], () => context.provider.listDirectory(context.path('d'), { limit: 10 }));
      expect(listing.entries.map(({ name, kind, sizeBytes }) => [name, kind, sizeBytes])).toEqual([
        ['one', 'file', 6],
        ['two', 'file', 6],
      ]);
      expect(await context.provider.stat(context.path('d/two'))).toMatchObject({ kind: 'file', sizeBytes: 6 });
    },
    hardLinks,
  ),
  defineCase(
    'hard links',
    'a recursive delete never loses the name outside the tree',
    async ({ fixtures, provider, path }) => {
      await fixtures.writeFile('keep.txt', 'shared');
      await fixtures.writeFile('tree/plain.txt', 'x');
      await fixtures.hardLink('keep.txt', 'tree/alias.txt');
      try {
        expect(await provider.deleteDirectory(path('tree'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
        expect(await fixtures.kindOf('tree')).toBe('missing');
      } catch (error) {
        // Refusing the hard-linked file is also within the contract; losing the other name is not.
        if (!LibosError.is(error, 'hard_link_refused')) throw error;
      }
      expect(text(await fixtures.readFile('keep.txt'))).toBe('shared');
    },
    hardLinks,
  ),
];
