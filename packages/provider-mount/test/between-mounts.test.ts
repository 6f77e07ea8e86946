import { describe, expect, it } from 'vitest';
import { mountedWorkspace } from './workspace.js';

describe('between two mounts', () => {
  it('copy_file carries bytes and mode from one provider into another, creating parents', async () => {
    const { ok, web, api } = await mountedWorkspace({ web: 'local', api: 'memfs' });
    await web.fixtures.writeFile('bin/run.sh', '#!/bin/sh\necho hi\n');
    await web.fixtures.modes!.set('bin/run.sh', 0o750);
    expect(await ok('copy_file', { from: 'web/bin/run.sh', to: 'api/tools/run.sh' })).toEqual({
      from: 'web/bin/run.sh',
      to: 'api/tools/run.sh',
      bytes_copied: 18,
      replaced: false,
    });
    expect(new TextDecoder().decode((await api.fixtures.readFile('tools/run.sh'))!)).toBe('#!/bin/sh\necho hi\n');
    expect(await api.fixtures.modes!.get('tools/run.sh')).toBe(0o750);
    // And back, replacing a file: the target takes the source's mode too.
    await api.fixtures.writeFile('tools/run.sh', 'changed\n');
    await api.fixtures.modes!.set('tools/run.sh', 0o600);
    expect(await ok('copy_file', { from: 'api/tools/run.sh', to: 'web/bin/run.sh', overwrite: true })).toMatchObject({
      replaced: true,
      bytes_copied: 8,
    });
    expect(await web.fixtures.modes!.get('bin/run.sh')).toBe(0o600);
  });

  it('copy_file between mounts refuses what a copy inside one refuses, and changes nothing', async () => {
    const { fails, web, api, fingerprint } = await mountedWorkspace({ web: 'local', api: 'memfs' });
    await web.fixtures.writeFile('a.txt', 'a');
    await web.fixtures.writeFile('linked.txt', 'linked');
    await web.fixtures.hardLink!('linked.txt', 'twin.txt');
    await web.fixtures.symlink!('link.txt', 'a.txt');
    await web.fixtures.fifo!('pipe');
    await api.fixtures.writeFile('taken.txt', 'taken');
    await api.fixtures.makeDirectory('dir');
    const before = fingerprint();
    expect(await fails('copy_file', { from: 'web/a.txt', to: 'api/taken.txt' })).toMatchObject({
      code: 'already_exists',
      details: { path: 'api/taken.txt' },
    });
    expect(await fails('copy_file', { from: 'web/a.txt', to: 'api/dir', overwrite: true })).toMatchObject({ code: 'not_a_file' });
    expect(await fails('copy_file', { from: 'web/twin.txt', to: 'api/x' })).toMatchObject({
      code: 'hard_link_refused',
      details: { path: 'web/twin.txt' },
    });
    expect(await fails('copy_file', { from: 'web/link.txt', to: 'api/x' })).toMatchObject({
      code: 'symlink_refused',
      details: { path: 'web/link.txt' },
    });
    expect(await fails('copy_file', { from: 'web/pipe', to: 'api/x' })).toMatchObject({ code: 'not_a_file' });
    expect(await fails('copy_file', { from: 'web/missing', to: 'api/x' })).toMatchObject({ code: 'not_found', details: { path: 'web/missing' } });
    expect(fingerprint()).toBe(before);
  });

  it('a copy between mounts is bounded: a larger file is too_large and nothing is written', async () => {
    const { ok, fails, web, api } = await mountedWorkspace({}, { mount: { crossMountCopyMaxBytes: 8 } });
    await web.fixtures.writeFile('small.txt', '12345678');
    await web.fixtures.writeFile('big.txt', '123456789');
    expect(await ok('copy_file', { from: 'web/small.txt', to: 'api/small.txt' })).toMatchObject({ bytes_copied: 8 });
    expect(await fails('copy_file', { from: 'web/big.txt', to: 'api/big.txt' })).toMatchObject({ code: 'too_large', effect: 'none' });
    expect(await api.fixtures.kindOf('big.txt')).toBe('missing');
  });

  it('move_file between mounts is invalid_arguments, probes nothing and moves nothing', async () => {
    const { ok, fails, web, fingerprint } = await mountedWorkspace();
    await web.fixtures.writeFile('a.txt', 'a');
    const before = fingerprint();
    const error = await fails('move_file', { from: 'web/a.txt', to: 'api/a.txt' });
    expect(error).toMatchObject({
      code: 'invalid_arguments',
      effect: 'none',
      details: { reason: 'cross_mount_move', from_mount: 'web', to_mount: 'api' },
    });
    expect(error.message).toContain('cannot be moved between mounts');
    // Decided from the paths alone: a missing source says the same, so nothing is probed.
    expect(await fails('move_file', { from: 'web/missing.txt', to: 'api/a.txt' })).toMatchObject({ code: 'invalid_arguments' });
    expect(fingerprint()).toBe(before);
    expect(await ok('move_file', { from: 'web/a.txt', to: 'web/b/a.txt' })).toEqual({ from: 'web/a.txt', to: 'web/b/a.txt', replaced: false });
  });

  it('a recursive delete stays in its mount, even where the other mount holds the same names', async () => {
    const { ok, web, api } = await mountedWorkspace();
    for (const backing of [web, api]) await backing.fixtures.writeFile('shared/deep/file.txt', 'x');
    const apiBefore = api.wholeFingerprint();
    expect(await ok('delete_directory', { path: 'web/shared', recursive: true })).toMatchObject({ deleted: true });
    expect(await web.fixtures.kindOf('shared')).toBe('missing');
    expect(api.wholeFingerprint()).toBe(apiBefore);
  });

  it('search_files and find_files walk every mount from the root, reporting workspace paths', async () => {
    const { ok, web, api } = await mountedWorkspace();
    await web.fixtures.writeFile('src/app.ts', 'const needle = 1;\n');
    await api.fixtures.writeFile('src/server.ts', 'export const needle = 2;\n');
    const found = await ok('search_files', { path: '.', query: 'needle' });
    expect((found.matches as Array<{ path: string }>).map((match) => match.path)).toEqual(['api/src/server.ts', 'web/src/app.ts']);
    const files = await ok('find_files', { path: '.', glob: '**/*.ts' });
    expect((files.files as Array<{ path: string }>).map((file) => file.path)).toEqual(['api/src/server.ts', 'web/src/app.ts']);
  });
});
