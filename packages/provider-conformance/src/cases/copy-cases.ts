import type { CopyFileOptions, FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

const group = 'copy';
const needs = (...capabilities: CapabilityName[]) => ({ methods: ['copyFile'] as const, capabilities });

// Only cases that declare `methods: ['copyFile']` call this, and the kit skips them for a provider without it.
function copy(provider: FileSystemProviderV1, from: WorkspacePath, to: WorkspacePath, options: CopyFileOptions) {
  return provider.copyFile!(from, to, options);
}

/** `copyFile`: a whole copy with its mode, `overwrite`, kinds and links on either side. */
export const copyCases: readonly ConformanceCase[] = [
  defineCase(
    group,
    'copies bytes and mode to a new name, creating missing parents',
    async ({ provider, fixtures, path }) => {
      const bytes = Uint8Array.from({ length: 3_000_000 }, (_, index) => index % 251);
      await fixtures.writeFile('a/source.bin', bytes);
      if (fixtures.modes !== undefined) await fixtures.modes.set('a/source.bin', 0o750);
      expect(await copy(provider, path('a/source.bin'), path('b/c/copy.bin'), { overwrite: false })).toEqual({
        bytesCopied: bytes.length,
        replaced: false,
      });
      expect(Buffer.from((await fixtures.readFile('b/c/copy.bin')) ?? []).equals(Buffer.from(bytes))).toBe(true);
      expect(Buffer.from((await fixtures.readFile('a/source.bin')) ?? []).equals(Buffer.from(bytes))).toBe(true);
      if (fixtures.modes !== undefined) expect(await fixtures.modes.get('b/c/copy.bin')).toBe(0o750);
    },
    needs(),
  ),
  defineCase(
    group,
    'overwrite false refuses anything at the target, overwrite true replaces a file',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('one.txt', 'one');
      await fixtures.writeFile('two.txt', 'two');
      await expectUnchanged(context, [], () =>
        expectError(() => copy(provider, path('one.txt'), path('two.txt'), { overwrite: false }), 'already_exists'),
      );
      await expectError(() => copy(provider, path('one.txt'), path('one.txt'), { overwrite: false }), 'already_exists');
      expect(await copy(provider, path('one.txt'), path('two.txt'), { overwrite: true })).toEqual({ bytesCopied: 3, replaced: true });
      expect(text(await fixtures.readFile('two.txt'))).toBe('one');
      expect(text(await fixtures.readFile('one.txt'))).toBe('one');
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses wrong kinds on either side, the wrong kind winning over overwrite false',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('file.txt', 'f');
      await fixtures.makeDirectory('dir');
      for (const [from, to, overwrite, code] of [
        ['missing.txt', 'x.txt', false, 'not_found'],
        ['dir', 'x.txt', false, 'not_a_file'],
        ['.', 'x.txt', false, 'not_a_file'],
        ['file.txt', 'dir', false, 'not_a_file'],
        ['file.txt', 'dir', true, 'not_a_file'],
        ['file.txt', '.', true, 'not_a_file'],
        ['file.txt', 'file.txt/inside', false, 'not_a_directory'],
      ] as const) {
        await expectUnchanged(context, ['x.txt'], () => expectError(() => copy(provider, path(from), path(to), { overwrite }), code));
      }
    },
    needs(),
  ),
  defineCase(
    group,
    'refuses links on either side and never copies anything outside',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('plain.txt', 'plain');
      await fixtures.symlink('file-link', fixtures.outside.fileTarget('.'));
      await fixtures.symlink('dir-link', fixtures.outside.directoryTarget('.'));
      await fixtures.symlink('dangling', 'nowhere');
      const outside = await fixtures.outside.fingerprint();
      for (const [from, to, overwrite] of [
        ['file-link', 'x.txt', false],
        ['dir-link/secret.txt', 'x.txt', false],
        ['plain.txt', 'dir-link/stolen.txt', false],
        ['plain.txt', 'file-link', true],
        ['plain.txt', 'dangling', true],
      ] as const) {
        await expectError(() => copy(provider, path(from), path(to), { overwrite }), 'symlink_refused');
      }
      expect(await fixtures.kindOf('x.txt')).toBe('missing');
      expect(await fixtures.outside.fingerprint()).toBe(outside);
    },
    needs('symlinks'),
  ),
  defineCase(
    group,
    'refuses a hard-linked file as the source and as the file to replace',
    async (context) => {
      const { provider, fixtures, path, expectError } = context;
      await fixtures.writeFile('plain.txt', 'plain');
      await fixtures.writeFile('twin-a.txt', 'twin');
      await fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      await expectError(() => copy(provider, path('twin-a.txt'), path('x.txt'), { overwrite: false }), 'hard_link_refused');
      await expectError(() => copy(provider, path('plain.txt'), path('twin-b.txt'), { overwrite: true }), 'hard_link_refused');
      expect(text(await fixtures.readFile('twin-b.txt'))).toBe('twin');
      expect(await fixtures.kindOf('x.txt')).toBe('missing');
    },
    needs('hardLinks'),
  ),
  defineCase(
    group,
    'of two racing copies onto one free name exactly one wins',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('a.txt', 'A');
      await fixtures.writeFile('b.txt', 'B');
      const outcomes = await Promise.allSettled([
        copy(provider, path('a.txt'), path('c.txt'), { overwrite: false }),
        copy(provider, path('b.txt'), path('c.txt'), { overwrite: false }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      expect(['A', 'B']).toContain(text(await fixtures.readFile('c.txt')));
    },
    needs(),
  ),
];
