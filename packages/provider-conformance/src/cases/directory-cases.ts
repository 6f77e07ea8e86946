import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectUnchanged, text } from './case-helpers.js';

const group = 'making directories';

/** `makeDirectory`: parents, `existOk`, the root, and `created` describing the final directory only. */
export const directoryCases: readonly ConformanceCase[] = [
  defineCase(group, 'creates a directory and reports created', async ({ provider, fixtures, path }) => {
    expect(await provider.makeDirectory(path('d'), { parents: false, existOk: false })).toEqual({ created: true });
    expect(await fixtures.kindOf('d')).toBe('directory');
  }),
  defineCase(group, 'parents creates every missing ancestor', async ({ provider, fixtures, path }) => {
    expect(await provider.makeDirectory(path('a/b/c'), { parents: true, existOk: false })).toEqual({ created: true });
    for (const directory of ['a', 'a/b', 'a/b/c']) expect(await fixtures.kindOf(directory)).toBe('directory');
  }),
  defineCase(group, 'created describes the final directory only', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('a');
    expect(await provider.makeDirectory(path('a/b'), { parents: true, existOk: true })).toEqual({ created: true });
    expect(await provider.makeDirectory(path('a'), { parents: true, existOk: true })).toEqual({ created: false });
    expect(await provider.makeDirectory(path('x/y'), { parents: true, existOk: true })).toEqual({ created: true });
    expect(await fixtures.kindOf('x')).toBe('directory');
  }),
  defineCase(group, 'an existing directory with existOk is kept as it is', async (context) => {
    await context.fixtures.writeFile('d/keep.txt', 'kept');
    const result = await expectUnchanged(context, [], () => context.provider.makeDirectory(context.path('d'), { parents: false, existOk: true }));
    expect(result).toEqual({ created: false });
    expect(text(await context.fixtures.readFile('d/keep.txt'))).toBe('kept');
  }),
  defineCase(group, 'the root with existOk reports not created', async ({ provider, path }) => {
    expect(await provider.makeDirectory(path('.'), { parents: false, existOk: true })).toEqual({ created: false });
    expect(await provider.makeDirectory(path('.'), { parents: true, existOk: true })).toEqual({ created: false });
  }),
  defineCase(group, 'parents:false with the parent present creates the directory', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('a/b');
    expect(await provider.makeDirectory(path('a/b/c'), { parents: false, existOk: false })).toEqual({ created: true });
    expect(await fixtures.kindOf('a/b/c')).toBe('directory');
  }),
  defineCase(group, 'a missing parent without parents creates nothing', async ({ provider, fixtures, path, expectError }) => {
    await expectError(() => provider.makeDirectory(path('m/n'), { parents: false, existOk: true }), 'not_found');
    expect(await fixtures.kindOf('m')).toBe('missing');
  }),
];
