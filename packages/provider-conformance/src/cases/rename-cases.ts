import type { FileSystemProviderV1, RenameOptions, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

const needs = (...capabilities: CapabilityName[]) => ({ methods: ['rename'] as const, capabilities });

// Only cases that declare `methods: ['rename']` call this, and the kit skips them for a provider without it.
function rename(provider: FileSystemProviderV1, from: WorkspacePath, to: WorkspacePath, options: RenameOptions) {
  return provider.rename!(from, to, options);
}

/** `rename`: one regular single-link file moved atomically; `overwrite`, kinds and links on either side. */
export const renameCases: readonly ConformanceCase[] = [
  defineCase(
    'rename',
    'moves a file to a new name, creating missing parents',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('a/old.txt', 'moved bytes');
      expect(await rename(provider, path('a/old.txt'), path('b/c/new.txt'), { overwrite: false })).toEqual({ replaced: false });
      expect(await fixtures.kindOf('a/old.txt')).toBe('missing');
      expect(await fixtures.kindOf('a')).toBe('directory');
      expect(text(await fixtures.readFile('b/c/new.txt'))).toBe('moved bytes');
    },
    needs(),
  ),
  defineCase(
    'rename',
    'overwrite false refuses an existing file, overwrite true replaces it',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('one.txt', 'one');
      await fixtures.writeFile('two.txt', 'two');
      await context(provider, path).refuses('one.txt', 'two.txt', false, 'already_exists');
      expect(text(await fixtures.readFile('two.txt'))).toBe('two');
      expect(await rename(provider, path('one.txt'), path('two.txt'), { overwrite: true })).toEqual({ replaced: true });
      expect(text(await fixtures.readFile('two.txt'))).toBe('one');
      expect(await fixtures.kindOf('one.txt')).toBe('missing');
    },
    needs(),
  ),
  defineCase(
    'rename',
    'refuses wrong kinds on either side, the wrong kind winning over overwrite false',
    async (caseContext) => {
      const { provider, fixtures, path, expectError } = caseContext;
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
        await expectError(() => rename(provider, path(from), path(to), { overwrite }), code);
      }
      expect(text(await fixtures.readFile('file.txt'))).toBe('f');
      expect(await fixtures.kindOf('x.txt')).toBe('missing');
    },
    needs(),
  ),
  defineCase(
    'rename',
    'a file renamed onto itself stays as it is and reports nothing replaced',
    async (caseContext) => {
      await caseContext.fixtures.writeFile('d/same.txt', 'same bytes');
      const result = await expectUnchanged(caseContext, [], () =>
        rename(caseContext.provider, caseContext.path('d/same.txt'), caseContext.path('d/same.txt'), { overwrite: true }),
      );
      expect(result).toEqual({ replaced: false });
      expect(text(await caseContext.fixtures.readFile('d/same.txt'))).toBe('same bytes');
    },
    needs(),
  ),
  defineCase(
    'rename',
    'refuses links on either side and never moves anything outside',
    async (caseContext) => {
      const { provider, fixtures, path, expectError } = caseContext;
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
        ['plain.txt', 'dangling', false],
        ['plain.txt', 'dangling', true],
      ] as const) {
        await expectError(() => rename(provider, path(from), path(to), { overwrite }), 'symlink_refused');
      }
      expect(text(await fixtures.readFile('plain.txt'))).toBe('plain');
      expect(await fixtures.outside.fingerprint()).toBe(outside);
    },
    needs('symlinks'),
  ),
  defineCase(
    'rename',
    'refuses a hard-linked file as the source and as the file to replace',
    async (caseContext) => {
      const { provider, fixtures, path, expectError } = caseContext;
      await fixtures.writeFile('plain.txt', 'plain');
      await fixtures.writeFile('twin-a.txt', 'twin');
      await fixtures.hardLink('twin-a.txt', 'twin-b.txt');
      await expectError(() => rename(provider, path('twin-a.txt'), path('x.txt'), { overwrite: false }), 'hard_link_refused');
      await expectError(() => rename(provider, path('plain.txt'), path('twin-b.txt'), { overwrite: true }), 'hard_link_refused');
      expect(text(await fixtures.readFile('twin-b.txt'))).toBe('twin');
    },
    needs('hardLinks'),
  ),
  defineCase(
    'rename',
    'of two racing moves onto one free name exactly one wins and the other file stays',
    async ({ provider, fixtures, path }) => {
      await fixtures.writeFile('a.txt', 'A');
      await fixtures.writeFile('b.txt', 'B');
      const outcomes = await Promise.allSettled([
        rename(provider, path('a.txt'), path('c.txt'), { overwrite: false }),
        rename(provider, path('b.txt'), path('c.txt'), { overwrite: false }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const winner = text(await fixtures.readFile('c.txt'));
      expect(text(await fixtures.readFile(winner === 'A' ? 'b.txt' : 'a.txt'))).toBe(winner === 'A' ? 'B' : 'A');
    },
    needs(),
  ),
];

function context(provider: FileSystemProviderV1, path: (text: string) => WorkspacePath) {
  return {
    async refuses(from: string, to: string, overwrite: boolean, code: string) {
      await expect(rename(provider, path(from), path(to), { overwrite })).rejects.toMatchObject({ code, effect: 'none' });
    },
  };
}
