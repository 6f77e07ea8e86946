import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectUnchanged } from './case-helpers.js';

const group = '.git';

/** Spellings of `.git` that a recursive delete must refuse, labelled for readable ids. */
const aliases: ReadonlyArray<readonly [label: string, name: string]> = [
  ['.git', '.git'],
  ['.GIT', '.GIT'],
  ['.Git', '.Git'],
  ['git~1', 'git~1'],
  ['GIT~1', 'GIT~1'],
  ['.git with a trailing dot', '.git.'],
  ['.git with trailing spaces', '.git  '],
  ['.git with an NTFS stream suffix', '.git::$INDEX_ALLOCATION'],
  ['.git with a named stream', '.git:x'],
  ['.git with a zero-width space', '.g\u200Bit'],
];

const placements = [
  ['as a directory directly inside', (alias: string) => `tree/${alias}/config`],
  ['as a file three levels down', (alias: string) => `tree/m/n/${alias}`],
] as const;

/** `.git` is listed like any entry, and a recursive delete refuses a tree holding any alias before deleting anything. */
export const gitCases: readonly ConformanceCase[] = [
  defineCase(group, 'a .git directory and a .git file are listed', async (context) => {
    await context.fixtures.writeFile('.git/HEAD', 'ref');
    await context.fixtures.writeFile('sub/.git', 'gitdir: ../.git');
    const root = await expectUnchanged(context, [], () => context.provider.listDirectory(context.path('.'), { limit: 10 }));
    expect(root.entries.map(({ name, path, kind }) => [name, path, kind])).toEqual([
      ['.git', '.git', 'directory'],
      ['sub', 'sub', 'directory'],
    ]);
    const sub = await context.provider.listDirectory(context.path('sub'), { limit: 10 });
    expect(sub.entries.map(({ name, path, kind, sizeBytes }) => [name, path, kind, sizeBytes])).toEqual([['.git', 'sub/.git', 'file', 15]]);
  }),
  defineCase(
    group,
    'a .git reached only through a link in the tree does not stop a recursive delete',
    async ({ fixtures, provider, path }) => {
      await fixtures.writeFile('repo/.git/HEAD', 'ref');
      await fixtures.writeFile('tree/file.txt', 'x');
      await fixtures.symlink('tree/repo-link', '../repo');
      await fixtures.symlink('tree/git-link', '../repo/.git');
      expect(await provider.deleteDirectory(path('tree'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
      expect(await fixtures.kindOf('tree')).toBe('missing');
      expect(await fixtures.kindOf('repo/.git/HEAD')).toBe('file');
    },
    { capabilities: ['symlinks'] },
  ),
  defineCase(group, 'recursive delete refuses a .git listed after more than a thousand names', async (context) => {
    // `!` sorts before `.`, so a pre-scan that lists each directory with a bounded limit never reaches `.git`.
    const { fixtures, provider, path } = context;
    const names = Array.from({ length: 1030 }, (_, index) => `tree/!${index.toString().padStart(4, '0')}`);
    for (const name of names) await fixtures.writeFile(name, '');
    await fixtures.makeDirectory('tree/.git');
    await context.expectError(() => provider.deleteDirectory(path('tree'), { recursive: true, missingOk: false }), 'protected_path');
    // Reading back every name would double the cost; a delete that started shows at either end.
    for (const name of [names[0] ?? '', names[names.length - 1] ?? '']) expect(await fixtures.kindOf(name)).toBe('file');
    expect(await fixtures.kindOf('tree/.git')).toBe('directory');
  }),
  defineCase(group, 'recursive delete refuses a .git forty levels down', async (context) => {
    const deep = Array.from({ length: 40 }, (_, index) => `l${index}`).join('/');
    await context.fixtures.writeFile('tree/0-first.txt', 'x');
    await context.fixtures.writeFile(`tree/${deep}/.git/HEAD`, 'ref');
    await expectUnchanged(context, ['tree', `tree/${deep}`], () =>
      context.expectError(() => context.provider.deleteDirectory(context.path('tree'), { recursive: true, missingOk: false }), 'protected_path'),
    );
  }),
  ...aliases.flatMap(([label, alias]) =>
    placements.map(([placement, place]) =>
      defineCase(group, `recursive delete refuses a tree holding ${label} ${placement}`, async (context) => {
        // Entries sorting before and after the alias: a delete that stops when it meets it has already removed some.
        await context.fixtures.writeFile('tree/0-first.txt', 'x');
        await context.fixtures.writeFile('tree/a/early.txt', 'x');
        await context.fixtures.writeFile(place(alias), 'protected');
        await context.fixtures.writeFile('tree/z/late.txt', 'x');
        await context.fixtures.writeFile('tree/~last.txt', 'x');
        const error = await expectUnchanged(context, ['tree'], () =>
          context.expectError(() => context.provider.deleteDirectory(context.path('tree'), { recursive: true, missingOk: false }), 'protected_path'),
        );
        // The entry itself, not the tree asked for nor a file inside the entry.
        const entry = place(alias).endsWith('/config') ? place(alias).slice(0, -'/config'.length) : place(alias);
        expect(error.details?.protected, 'details.protected').toBe(entry);
      }),
    ),
  ),
];
