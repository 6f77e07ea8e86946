import type { DirectoryHandle, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { text } from './case-helpers.js';

const needs = (...capabilities: CapabilityName[]) => ({ methods: ['openDirectory'] as const, capabilities });

// Only cases that declare `methods: ['openDirectory']` call this, and the kit skips them for a provider without it.
function open(provider: FileSystemProviderV1, path: WorkspacePath): Promise<DirectoryHandle> {
  return provider.openDirectory!(path);
}

/** `openDirectory`: a handle answers exactly what the path calls answer, and is refused where they are. */
export const directoryHandleCases: readonly ConformanceCase[] = [
  defineCase(
    'directory handles',
    'a handle lists, reads and opens children exactly as the path calls do',
    async ({ provider, fixtures, path, expectClean }) => {
      await fixtures.writeFile('d/b.txt', 'bee');
      await fixtures.writeFile('d/a.txt', 'a longer text');
      await fixtures.writeFile('d/sub/c.txt', 'sea');
      const handle = await open(provider, path('d'));
      try {
        expect(handle.path).toBe('d');
        expect(await handle.list({ limit: 10 })).toEqual(await provider.listDirectory(path('d'), { limit: 10 }));
        expect(await handle.list({ limit: 1 })).toEqual(await provider.listDirectory(path('d'), { limit: 1 }));
        const read = await handle.readFile('a.txt', { maxBytes: 4 });
        expect(read).toEqual(await provider.readFile(path('d/a.txt'), { maxBytes: 4 }));
        expect(read.truncated).toBe(true);
        const child = await handle.openDirectory('sub');
        try {
          expect(child.path).toBe('d/sub');
          expect(text((await child.readFile('c.txt', { maxBytes: 100 })).bytes)).toBe('sea');
          expectClean(await child.list({ limit: 10 }));
        } finally {
          child.close();
        }
      } finally {
        handle.close();
        handle.close();
      }
    },
    needs(),
  ),
  defineCase(
    'directory handles',
    'refuses what the path calls refuse: missing, wrong kind, a .git alias',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/f.txt', 'x');
      await fixtures.makeDirectory('d/e');
      await expectError(() => open(provider, path('missing')), 'not_found');
      await expectError(() => open(provider, path('d/f.txt')), 'not_a_directory');
      const handle = await open(provider, path('d'));
      try {
        await expectError(() => handle.readFile('missing.txt', { maxBytes: 10 }), 'not_found');
        await expectError(() => handle.readFile('e', { maxBytes: 10 }), 'not_a_file');
        await expectError(() => handle.openDirectory('f.txt'), 'not_a_directory');
        await expectError(() => handle.openDirectory('missing'), 'not_found');
        await expectError(() => handle.openDirectory('.git'), ['protected_path', 'not_found']);
        await expectError(() => handle.readFile('.GIT', { maxBytes: 10 }), ['protected_path', 'not_found']);
      } finally {
        handle.close();
      }
    },
    needs(),
  ),
  defineCase(
    'directory handles',
    'never follows a link: as the directory, as a child directory, as a child file',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/in.txt', 'inside');
      await fixtures.symlink('d/out-file', fixtures.outside.fileTarget('d'));
      await fixtures.symlink('d/out-dir', fixtures.outside.directoryTarget('d'));
      await fixtures.symlink('link-dir', 'd');
      await expectError(() => open(provider, path('link-dir')), 'symlink_refused');
      const handle = await open(provider, path('d'));
      try {
        await expectError(() => handle.readFile('out-file', { maxBytes: 100 }), 'symlink_refused');
        await expectError(() => handle.openDirectory('out-dir'), 'symlink_refused');
        await expectError(() => handle.readFile('out-dir', { maxBytes: 100 }), 'symlink_refused');
      } finally {
        handle.close();
      }
    },
    needs('symlinks'),
  ),
  defineCase(
    'directory handles',
    'refuses a file with a second name, as readFile does',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/one.txt', 'shared');
      await fixtures.hardLink('d/one.txt', 'd/two.txt');
      const handle = await open(provider, path('d'));
      try {
        await expectError(() => handle.readFile('one.txt', { maxBytes: 100 }), 'hard_link_refused');
      } finally {
        handle.close();
      }
    },
    needs('hardLinks'),
  ),
  defineCase(
    'directory handles',
    'a closed handle, or one of a closed provider, fails with provider_failure',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/f.txt', 'x');
      const closed = await open(provider, path('d'));
      closed.close();
      await expectError(() => closed.readFile('f.txt', { maxBytes: 10 }), 'provider_failure', 'any');
      await expectError(() => closed.list({ limit: 10 }), 'provider_failure', 'any');
      const held = await open(provider, path('d'));
      await provider.close();
      await expectError(() => held.readFile('f.txt', { maxBytes: 10 }), 'provider_failure', 'any');
      held.close();
    },
    needs(),
  ),
];
