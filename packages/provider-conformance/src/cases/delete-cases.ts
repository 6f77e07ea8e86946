import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

/** `deleteFile`: one regular file, `missingOk`, siblings untouched. */
export const deleteFileCases: readonly ConformanceCase[] = [
  defineCase('deleting files', 'deletes a root-level file and keeps its siblings', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('gone.txt', 'x');
    await fixtures.writeFile('stay.txt', 'y');
    expect(await provider.deleteFile(path('gone.txt'), { missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('gone.txt')).toBe('missing');
    expect(text(await fixtures.readFile('stay.txt'))).toBe('y');
  }),
  defineCase('deleting files', 'deletes a nested file and keeps its directory', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('a/b/gone.txt', 'x');
    expect(await provider.deleteFile(path('a/b/gone.txt'), { missingOk: true })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('a/b/gone.txt')).toBe('missing');
    expect(await fixtures.kindOf('a/b')).toBe('directory');
  }),
  defineCase('deleting files', 'a missing file with missingOk is not deleted', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('a');
    expect(await provider.deleteFile(path('a/nothing'), { missingOk: true })).toEqual({ deleted: false });
    expect(await fixtures.kindOf('a')).toBe('directory');
  }),
  defineCase('deleting files', 'missingOk also forgives a missing ancestor, creating nothing', async (context) => {
    await context.fixtures.makeDirectory('a');
    await expectUnchanged(context, ['gone', 'a/gone'], async () => {
      expect(await context.provider.deleteFile(context.path('gone/deeper/f'), { missingOk: true })).toEqual({ deleted: false });
      expect(await context.provider.deleteFile(context.path('a/gone/f'), { missingOk: true })).toEqual({ deleted: false });
    });
  }),
];

const tree = async (fixtures: Parameters<ConformanceCase['run']>[0]['fixtures'], root: string): Promise<void> => {
  await fixtures.writeFile(`${root}/a.txt`, 'a');
  await fixtures.writeFile(`${root}/sub/b.txt`, 'b');
  await fixtures.writeFile(`${root}/sub/deeper/c.txt`, 'c');
  await fixtures.makeDirectory(`${root}/sub/empty`);
  await fixtures.writeFile(`${root}/.gitignore`, 'x');
  await fixtures.writeFile(`${root}/.github/workflow.yml`, 'x');
  await fixtures.writeFile(`${root}/x.git`, 'x');
};

/** `deleteDirectory`: empty, recursive trees, `missingOk`, root-level and nested targets. */
export const deleteDirectoryCases: readonly ConformanceCase[] = [
  defineCase('deleting directories', 'deletes an empty root-level directory', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('empty');
    expect(await provider.deleteDirectory(path('empty'), { recursive: false, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('empty')).toBe('missing');
  }),
  defineCase('deleting directories', 'deletes an empty nested directory and keeps its parent', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('a/b/empty');
    expect(await provider.deleteDirectory(path('a/b/empty'), { recursive: false, missingOk: true })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('a/b/empty')).toBe('missing');
    expect(await fixtures.kindOf('a/b')).toBe('directory');
  }),
  defineCase('deleting directories', 'recursive deletes a root-level tree, .gitignore and .github included', async ({ provider, fixtures, path }) => {
    await tree(fixtures, 'top');
    await fixtures.writeFile('sibling.txt', 's');
    expect(await provider.deleteDirectory(path('top'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('top')).toBe('missing');
    expect(text(await fixtures.readFile('sibling.txt'))).toBe('s');
  }),
  defineCase('deleting directories', 'recursive deletes a nested tree and keeps its parent and siblings', async ({ provider, fixtures, path }) => {
    await tree(fixtures, 'p/q/tree');
    await fixtures.writeFile('p/q/sibling/file', 's');
    expect(await provider.deleteDirectory(path('p/q/tree'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('p/q/tree')).toBe('missing');
    expect(await fixtures.kindOf('p/q')).toBe('directory');
    expect(text(await fixtures.readFile('p/q/sibling/file'))).toBe('s');
  }),
  defineCase('deleting directories', 'recursive deletes an empty directory', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('empty');
    expect(await provider.deleteDirectory(path('empty'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('empty')).toBe('missing');
  }),
  defineCase('deleting directories', 'missingOk also forgives a missing ancestor, creating nothing', async (context) => {
    await context.fixtures.makeDirectory('a');
    await expectUnchanged(context, ['gone', 'a/gone'], async () => {
      for (const recursive of [false, true]) {
        expect(await context.provider.deleteDirectory(context.path('gone/deeper'), { recursive, missingOk: true })).toEqual({ deleted: false });
        expect(await context.provider.deleteDirectory(context.path('a/gone/deeper'), { recursive, missingOk: true })).toEqual({ deleted: false });
      }
    });
  }),
  defineCase('deleting directories', 'a missing directory with missingOk is not deleted', async ({ provider, path }) => {
    expect(await provider.deleteDirectory(path('nothing'), { recursive: false, missingOk: true })).toEqual({ deleted: false });
    expect(await provider.deleteDirectory(path('nothing'), { recursive: true, missingOk: true })).toEqual({ deleted: false });
  }),
];
