import type { FileSystemProviderV1, ReadFileRangeOptions, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

const group = 'reading ranges';
const needs = (...capabilities: CapabilityName[]) => ({ methods: ['readFileRange'] as const, capabilities });

// Only cases that declare `methods: ['readFileRange']` call this, and the kit skips them for a provider without it.
function range(provider: FileSystemProviderV1, path: WorkspacePath, options: ReadFileRangeOptions) {
  return provider.readFileRange!(path, options);
}

/** `readFileRange`: bytes at an offset or before the end, with their absolute offset and the file's size. */
export const rangeCases: readonly ConformanceCase[] = [
  defineCase(
    group,
    'reads at an offset and from the end',
    async (context) => {
      const { provider, fixtures, path } = context;
      await fixtures.writeFile('f.txt', '0123456789');
      const read = async (options: ReadFileRangeOptions) => {
        const result = await range(provider, path('f.txt'), options);
        return { text: text(result.bytes), offset: result.offset, sizeBytes: result.sizeBytes };
      };
      expect(await expectUnchanged(context, [], () => read({ offset: 3, maxBytes: 4 }))).toEqual({ text: '3456', offset: 3, sizeBytes: 10 });
      expect(await read({ offset: 8, maxBytes: 4 })).toEqual({ text: '89', offset: 8, sizeBytes: 10 });
      expect(await read({ offset: 12, maxBytes: 4 })).toEqual({ text: '', offset: 10, sizeBytes: 10 });
      expect(await read({ offset: 0, fromEnd: true, maxBytes: 4 })).toEqual({ text: '6789', offset: 6, sizeBytes: 10 });
      expect(await read({ offset: 4, fromEnd: true, maxBytes: 4 })).toEqual({ text: '2345', offset: 2, sizeBytes: 10 });
      expect(await read({ offset: 8, fromEnd: true, maxBytes: 4 })).toEqual({ text: '01', offset: 0, sizeBytes: 10 });
      expect(await read({ offset: 0, fromEnd: true, maxBytes: 100 })).toEqual({ text: '0123456789', offset: 0, sizeBytes: 10 });
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses what readFile refuses',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.makeDirectory('dir');
      await fixtures.writeFile('file.txt', 'f');
      for (const [target, code] of [
        ['missing.txt', 'not_found'],
        ['dir', 'not_a_file'],
        ['.', 'not_a_file'],
        ['file.txt/inside', 'not_a_directory'],
      ] as const) {
        await expectError(() => range(provider, path(target), { offset: 0, maxBytes: 1 }), code);
      }
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses links and hard links',
    async ({ provider, fixtures, path, expectError, expectClean }) => {
      await fixtures.symlink('file-link', fixtures.outside.fileTarget('.'));
      await fixtures.symlink('dir-link', fixtures.outside.directoryTarget('.'));
      await fixtures.writeFile('twin-a.txt', 'twin');
      await fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      for (const target of ['file-link', 'dir-link/secret.txt']) {
        expectClean(await expectError(() => range(provider, path(target), { offset: 0, fromEnd: true, maxBytes: 100 }), 'symlink_refused'));
      }
      await expectError(() => range(provider, path('twin-b.txt'), { offset: 0, maxBytes: 100 }), 'hard_link_refused');
    },
    needs('symlinks', 'hardLinks'),
  ),
];
