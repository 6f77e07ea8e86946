import { LibosError } from '@libos/core';
import type { DirectoryHandle, FileRead, FileSystemProviderV1, ReadFileOptions, WorkspacePath } from '@libos/core';
import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { CapabilityName, ConformanceCase } from '../conformance-case.js';
import { text } from './case-helpers.js';

type Answer = FileRead | LibosError;

const needs = (...capabilities: CapabilityName[]) => ({ methods: ['openDirectory'] as const, capabilities });

// Only cases that declare `methods: ['openDirectory']` call this, and the kit skips them for a provider without it.
function open(provider: FileSystemProviderV1, path: WorkspacePath): Promise<DirectoryHandle> {
  return provider.openDirectory!(path);
}

// The handle's batch read, or for a handle without one what a walk does instead (readFile per
// name, each error kept in its slot): either way the answers must be readFile's.
async function readAll(handle: DirectoryHandle, names: readonly string[], options: ReadFileOptions): Promise<readonly Answer[]> {
  if (handle.readFiles !== undefined) return handle.readFiles(names, options);
  const answers: Answer[] = [];
  for (const name of names) {
    answers.push(
      await handle.readFile(name, options).catch((error: unknown) => {
        if (LibosError.is(error)) return error;
        throw error;
      }),
    );
  }
  return answers;
}

// A slot holding an error, rethrown so the kit's expectError checks its code, effect and text.
const thrown = (answer: Answer | undefined) => async () => {
  if (answer === undefined || !LibosError.is(answer)) throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
  throw answer;
};

function readOf(answer: Answer | undefined): FileRead {
  if (answer === undefined || LibosError.is(answer)) throw new Error(`expected a read, got ${String(answer)}`);
  return answer;
}

/** `DirectoryHandle.readFiles`: one call answers, name by name and in order, what `readFile` answers. */
export const directoryBatchReadCases: readonly ConformanceCase[] = [
  defineCase(
    'directory batch reads',
    'answers each name in order exactly as readFile does: prefixes, truncation, missing, wrong kind, .git',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/a.txt', 'a longer text');
      await fixtures.writeFile('d/b.txt', 'bee');
      await fixtures.writeFile('d/empty.txt', '');
      await fixtures.makeDirectory('d/sub');
      const handle = await open(provider, path('d'));
      try {
        expect(await readAll(handle, [], { maxBytes: 4 })).toEqual([]);
        const answers = await readAll(handle, ['b.txt', 'a.txt', 'missing.txt', 'sub', 'empty.txt', '.GIT', 'b.txt'], { maxBytes: 4 });
        expect(answers).toHaveLength(7);
        expect(readOf(answers[0])).toEqual(await provider.readFile(path('d/b.txt'), { maxBytes: 4 }));
        expect(text(readOf(answers[0]).bytes)).toBe('bee');
        expect(readOf(answers[1])).toEqual(await provider.readFile(path('d/a.txt'), { maxBytes: 4 }));
        expect(readOf(answers[1]).truncated).toBe(true);
        expect(text(readOf(answers[1]).bytes)).toBe('a lo');
        await expectError(thrown(answers[2]), 'not_found');
        await expectError(thrown(answers[3]), 'not_a_file');
        expect(readOf(answers[4])).toMatchObject({ truncated: false });
        expect(readOf(answers[4]).bytes).toHaveLength(0);
        await expectError(thrown(answers[5]), ['protected_path', 'not_found']);
        expect(text(readOf(answers[6]).bytes)).toBe('bee');
      } finally {
        handle.close();
      }
    },
    needs(),
  ),
  defineCase(
    'directory batch reads',
    'refuses a link and a second name in their slots and still reads the files around them',
    async ({ provider, fixtures, path, expectError, expectClean }) => {
      await fixtures.writeFile('d/a.txt', 'first');
      await fixtures.symlink('d/b-link', fixtures.outside.fileTarget('d'));
      await fixtures.symlink('d/c-dir', fixtures.outside.directoryTarget('d'));
      await fixtures.writeFile('d/d.txt', 'shared');
      await fixtures.hardLink('d/d.txt', 'd/e.txt');
      await fixtures.writeFile('d/f.txt', 'last');
      const handle = await open(provider, path('d'));
      try {
        const answers = await readAll(handle, ['a.txt', 'b-link', 'c-dir', 'd.txt', 'e.txt', 'f.txt'], { maxBytes: 100 });
        expectClean(answers.map((answer) => (LibosError.is(answer) ? answer.message : text(answer.bytes))));
        expect(text(readOf(answers[0]).bytes)).toBe('first');
        await expectError(thrown(answers[1]), 'symlink_refused');
        await expectError(thrown(answers[2]), 'symlink_refused');
        await expectError(thrown(answers[3]), 'hard_link_refused');
        await expectError(thrown(answers[4]), 'hard_link_refused');
        expect(text(readOf(answers[5]).bytes)).toBe('last');
      } finally {
        handle.close();
      }
    },
    needs('symlinks', 'hardLinks'),
  ),
  defineCase(
    'directory batch reads',
    'a file swapped for a link after the listing is refused, never followed',
    async ({ provider, fixtures, path, expectError, expectClean }) => {
      await fixtures.writeFile('d/a.txt', 'kept');
      await fixtures.writeFile('d/b.txt', 'swapped');
      const handle = await open(provider, path('d'));
      try {
        const listing = await handle.list({ limit: 10 });
        expect(listing.entries.map((entry) => [entry.name, entry.kind])).toEqual([
          ['a.txt', 'file'],
          ['b.txt', 'file'],
        ]);
        await provider.deleteFile(path('d/b.txt'), { missingOk: false });
        await fixtures.symlink('d/b.txt', fixtures.outside.fileTarget('d'));
        const answers = await readAll(
          handle,
          listing.entries.map((entry) => entry.name),
          { maxBytes: 100 },
        );
        expect(text(readOf(answers[0]).bytes)).toBe('kept');
        await expectError(thrown(answers[1]), 'symlink_refused');
        expectClean(answers.map((answer) => (LibosError.is(answer) ? answer.message : text(answer.bytes))));
      } finally {
        handle.close();
      }
    },
    needs('symlinks'),
  ),
  defineCase(
    'directory batch reads',
    'a FIFO among the names is kind other, refused at once without blocking the batch',
    async ({ provider, fixtures, path, expectError, withinDeadline }) => {
      await fixtures.writeFile('d/a.txt', 'before');
      await fixtures.fifo!('d/pipe');
      await fixtures.writeFile('d/z.txt', 'after');
      const handle = await open(provider, path('d'));
      try {
        const answers = await withinDeadline(() => readAll(handle, ['a.txt', 'pipe', 'z.txt'], { maxBytes: 100 }), 2000);
        expect(text(readOf(answers[0]).bytes)).toBe('before');
        await expectError(thrown(answers[1]), 'not_a_file');
        expect(text(readOf(answers[2]).bytes)).toBe('after');
      } finally {
        handle.close();
      }
    },
    { ...needs('specialFiles'), fixtures: ['fifo'] },
  ),
  defineCase(
    'directory batch reads',
    'a closed handle fails the whole batch with provider_failure',
    async ({ provider, fixtures, path, expectError }) => {
      await fixtures.writeFile('d/f.txt', 'x');
      const handle = await open(provider, path('d'));
      handle.close();
      await expectError(() => readAll(handle, ['f.txt'], { maxBytes: 10 }), 'provider_failure', 'any');
    },
    needs(),
  ),
];
