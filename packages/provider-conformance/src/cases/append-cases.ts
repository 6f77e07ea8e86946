import type { AppendFileOptions, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

const group = 'append';
const needs = (...capabilities: CapabilityName[]) => ({ methods: ['appendFile'] as const, capabilities });

// Only cases that declare `methods: ['appendFile']` call this, and the kit skips them for a provider without it.
function append(provider: FileSystemProviderV1, path: WorkspacePath, content: string, options: AppendFileOptions) {
  return provider.appendFile!(path, utf8(content), options);
}

/** `appendFile`: bytes added at the end, a size precondition decided with the append, `create`, an empty-file prefix. */
export const appendCases: readonly ConformanceCase[] = [
  defineCase(
    group,
    'adds bytes at the end and reports the new size',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('log.txt', 'one\n');
      expect(await append(provider, path('log.txt'), 'two\n', { create: false })).toEqual({ bytesAppended: 4, sizeBytes: 8, created: false });
      expect(text(await fixtures.readFile('log.txt'))).toBe('one\ntwo\n');
    },
    needs(),
  ),
  defineCase(
    group,
    'expectedSizeBytes must match the size at the append, else content_conflict and nothing written',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('log.txt', 'abc');
      const conflict = await expectUnchanged(context, [], () =>
        expectError(() => append(provider, path('log.txt'), 'x', { create: false, expectedSizeBytes: 2 }), 'content_conflict'),
      );
      expect(conflict.details).toMatchObject({ expected_size_bytes: 2, actual_size_bytes: 3 });
      expect((await append(provider, path('log.txt'), 'd', { create: false, expectedSizeBytes: 3 })).sizeBytes).toBe(4);
      expect(text(await fixtures.readFile('log.txt'))).toBe('abcd');
    },
    needs(),
  ),
  defineCase(
    group,
    'a missing file is not_found without create, and made whole with it (parents too)',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await expectUnchanged(context, ['new/log.txt', 'new'], () =>
        expectError(() => append(provider, path('new/log.txt'), 'x', { create: false }), 'not_found'),
      );
      await expectError(() => append(provider, path('new/log.txt'), 'x', { create: true, expectedSizeBytes: 5 }), 'content_conflict');
      expect(await fixtures.kindOf('new')).toBe('missing');
      expect(await append(provider, path('new/log.txt'), 'first', { create: true, expectedSizeBytes: 0 })).toEqual({
        bytesAppended: 5,
        sizeBytes: 5,
        created: true,
      });
      expect(text(await fixtures.readFile('new/log.txt'))).toBe('first');
    },
    needs(),
  ),
  defineCase(
    group,
    'the empty-file prefix lands only on an empty or new file',
    async ({ provider, fixtures, path }) => {
      const prefix = Uint8Array.from([0xef, 0xbb, 0xbf]);
      await fixtures.writeFile('full.txt', 'a');
      await fixtures.writeFile('empty.txt', '');
      expect((await provider.appendFile!(path('full.txt'), utf8('b'), { create: false, emptyFilePrefix: prefix })).bytesAppended).toBe(1);
      expect((await provider.appendFile!(path('empty.txt'), utf8('b'), { create: false, emptyFilePrefix: prefix })).bytesAppended).toBe(4);
      expect((await provider.appendFile!(path('new.txt'), utf8('b'), { create: true, emptyFilePrefix: prefix })).sizeBytes).toBe(4);
      expect([...((await fixtures.readFile('full.txt')) ?? [])]).toEqual([0x61, 0x62]);
      expect([...((await fixtures.readFile('empty.txt')) ?? [])]).toEqual([0xef, 0xbb, 0xbf, 0x62]);
      expect([...((await fixtures.readFile('new.txt')) ?? [])]).toEqual([0xef, 0xbb, 0xbf, 0x62]);
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses wrong kinds and keeps the mode',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.makeDirectory('dir');
      await fixtures.writeFile('file.txt', 'f');
      for (const [target, code] of [
        ['dir', 'not_a_file'],
        ['.', 'not_a_file'],
        ['file.txt/inside', 'not_a_directory'],
      ] as const) {
        await expectUnchanged(context, [], () => expectError(() => append(provider, path(target), 'x', { create: true }), code));
      }
      if (fixtures.modes !== undefined) {
        await fixtures.modes.set('file.txt', 0o640);
        await append(provider, path('file.txt'), 'g', { create: false });
        expect(await fixtures.modes.get('file.txt')).toBe(0o640);
      }
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses links and never writes outside',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.symlink('file-link', fixtures.outside.fileTarget('.'));
      await fixtures.symlink('dir-link', fixtures.outside.directoryTarget('.'));
      await fixtures.symlink('dangling', 'nowhere');
      const outside = await fixtures.outside.fingerprint();
      for (const target of ['file-link', 'dir-link/secret.txt', 'dir-link/new.txt', 'dangling']) {
        await expectError(() => append(provider, path(target), 'x', { create: true }), 'symlink_refused');
      }
      expect(await fixtures.outside.fingerprint()).toBe(outside);
      expect(await fixtures.kindOf('dangling')).toBe('symlink');
    },
    needs('symlinks'),
  ),
  defineCase(
    group,
    'refuses a hard-linked file',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('twin-a.txt', 'twin');
      await fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      await expectUnchanged(context, [], () => expectError(() => append(provider, path('twin-b.txt'), 'x', { create: false }), 'hard_link_refused'));
    },
    needs('hardLinks'),
  ),
  defineCase(
    group,
    'of two appenders expecting the same size exactly one lands, and racing plain appends all land',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('log.txt', '');
      const guarded = await Promise.allSettled([
        append(provider, path('log.txt'), 'A', { create: false, expectedSizeBytes: 0 }),
        append(provider, path('log.txt'), 'B', { create: false, expectedSizeBytes: 0 }),
      ]);
      expect(guarded.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      await Promise.all(Array.from({ length: 20 }, (_, index) => append(provider, path('log.txt'), `${index % 10}`, { create: true })));
      expect(text(await fixtures.readFile('log.txt'))).toHaveLength(21);
    },
    needs(),
  ),
];
