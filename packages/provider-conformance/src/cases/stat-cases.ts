import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectIsoTime, expectUnchanged } from './case-helpers.js';

const group = 'stat';

/** `stat` reports kinds from an lstat, sizes for regular files only, and `missing` without throwing. */
export const statCases: readonly ConformanceCase[] = [
  defineCase(group, 'a missing path is kind missing', async ({ provider, path }) => {
    expect(await provider.stat(path('nothing'))).toEqual({ kind: 'missing', sizeBytes: null, modifiedAt: null });
  }),
  defineCase(group, 'a missing path in an existing directory is kind missing', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('a/b');
    expect((await provider.stat(path('a/b/nothing'))).kind).toBe('missing');
  }),
  defineCase(group, 'a file reports its size in bytes and an ISO time', async (context) => {
    await context.fixtures.writeFile('a/héllo.txt', 'héllo wörld');
    const status = await expectUnchanged(context, [], () => context.provider.stat(context.path('a/héllo.txt')));
    expect(status.kind).toBe('file');
    expect(status.sizeBytes).toBe(13);
    expectIsoTime(status.modifiedAt);
  }),
  defineCase(group, 'an empty file has size 0', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('empty', '');
    expect(await provider.stat(path('empty'))).toMatchObject({ kind: 'file', sizeBytes: 0 });
  }),
  defineCase(group, 'a directory has no size', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('dir/child', 'x');
    const status = await provider.stat(path('dir'));
    expect(status).toMatchObject({ kind: 'directory', sizeBytes: null });
    expectIsoTime(status.modifiedAt);
  }),
  defineCase(group, 'entries the provider made report ISO times too', async ({ provider, path }) => {
    await provider.writeFile(path('made/file.txt'), new TextEncoder().encode('x'), { overwrite: false });
    await provider.makeDirectory(path('made/dir'), { parents: false, existOk: false });
    for (const made of ['made', 'made/file.txt', 'made/dir']) expectIsoTime((await provider.stat(path(made))).modifiedAt);
    for (const entry of (await provider.listDirectory(path('made'), { limit: 10 })).entries) expectIsoTime(entry.modifiedAt);
    expectIsoTime((await provider.stat(path('.'))).modifiedAt);
  }),
  defineCase(group, 'the root is a directory', async ({ provider, path }) => {
    expect(await provider.stat(path('.'))).toMatchObject({ kind: 'directory', sizeBytes: null });
  }),
];
