import { LibosError } from '@libos/core';
import { memfs } from 'memfs';
import { describe, expect, it } from 'vitest';
import { MEMFS_CAPABILITIES, createMemfsProvider } from '../src/index.js';
import { createMemfsFixtures } from '../src/testing.js';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

describe('createMemfsProvider', () => {
  it('declares its capabilities and version', () => {
    const provider = createMemfsProvider();
    expect(provider.specificationVersion).toBe('v1');
    expect(provider.name).toBe('memfs');
    expect(provider.capabilities).toEqual({
      symlinks: true,
      hardLinks: true,
      specialFiles: true,
      atomicReplace: true,
      exclusiveCreate: true,
      durableWrites: false,
    });
    expect(provider.capabilities).toBe(MEMFS_CAPABILITIES);
    expect(provider.hostPath).toBeUndefined();
  });

  it('starts with an empty workspace', async () => {
    const provider = createMemfsProvider();
    expect(await provider.listDirectory(p('.'), { limit: 10 })).toEqual({ entries: [], truncated: false });
  });

  it('runs on a given volume at a given root, creating it when missing', async () => {
    const { fs } = memfs({}, '/');
    fs.mkdirSync('/srv');
    fs.writeFileSync('/srv/outside.txt', 'O');
    const provider = createMemfsProvider({ volume: fs, root: '/srv/ws' });
    await provider.writeFile(p('a.txt'), bytesOf('A'), { overwrite: true });
    expect(fs.readFileSync('/srv/ws/a.txt', 'utf8')).toBe('A');
    expect((await provider.listDirectory(p('.'), { limit: 10 })).entries.map((entry) => entry.name)).toEqual(['a.txt']);
    const fixtures = createMemfsFixtures(fs, '/srv/ws');
    expect(text(await fixtures.readFile('a.txt'))).toBe('A');
  });

  it('can take the whole volume as the workspace', async () => {
    const provider = createMemfsProvider({ root: '/' });
    await provider.writeFile(p('x/y'), bytesOf('Y'), { overwrite: true });
    expect((await provider.listDirectory(p('x'), { limit: 10 })).entries[0]?.path).toBe('x/y');
    expect(await provider.deleteDirectory(p('x'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
  });

  it('refuses a root that is not a canonical absolute volume path', () => {
    for (const root of ['relative', '/a/../b', '/a//b', '/a/', '']) {
      expect(() => createMemfsProvider({ root }), root).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    }
    const { fs } = memfs({}, '/');
    fs.writeFileSync('/file', '');
    expect(() => createMemfsProvider({ volume: fs, root: '/file/ws' })).toThrow(LibosError);
  });

  it('fails every call with provider_failure once closed', async () => {
    const { provider } = testbed();
    await provider.writeFile(p('f'), bytesOf('x'), { overwrite: true });
    await provider.close();
    const calls = [
      provider.stat(p('f')),
      provider.listDirectory(p('.'), { limit: 1 }),
      provider.readFile(p('f'), { maxBytes: 1 }),
      provider.writeFile(p('f'), bytesOf('y'), { overwrite: true }),
      provider.makeDirectory(p('d'), { parents: true, existOk: true }),
      provider.deleteFile(p('f'), { missingOk: true }),
      provider.deleteDirectory(p('d'), { recursive: true, missingOk: true }),
    ];
    for (const call of calls) expect((await failsWith(call, 'provider_failure')).effect).toBe('none');
  });

  it('fails with not_found once the root is gone, and provider_failure when something else took its place', async () => {
    const { provider, volume } = testbed();
    volume.rmdirSync('/workspace');
    await failsWith(provider.stat(p('.')), 'not_found');
    await failsWith(provider.listDirectory(p('.'), { limit: 1 }), 'not_found');
    await failsWith(provider.writeFile(p('f'), bytesOf('y'), { overwrite: true }), 'not_found');
    await failsWith(provider.makeDirectory(p('d'), { parents: true, existOk: true }), 'not_found');
    expect(volume.lstatSync('/workspace', { throwIfNoEntry: false })).toBeUndefined();
    volume.symlinkSync('/outside', '/workspace');
    await failsWith(provider.readFile(p('secret.txt'), { maxBytes: 10 }), 'provider_failure');
    await failsWith(provider.listDirectory(p('.'), { limit: 1 }), 'provider_failure');
  });
});

describe('createMemfsFixtures', () => {
  it('fingerprints the outside area and nothing inside the root', async () => {
    const { provider, fixtures, volume } = testbed();
    const before = await fixtures.outside.fingerprint();
    await provider.writeFile(p('inside'), bytesOf('x'), { overwrite: true });
    expect(await fixtures.outside.fingerprint()).toBe(before);
    volume.writeFileSync('/outside/secret.txt', 'changed');
    expect(await fixtures.outside.fingerprint()).not.toBe(before);
  });

  it('builds link targets relative to the link directory', async () => {
    const { fixtures, volume } = testbed();
    expect(fixtures.outside.fileTarget('.')).toBe('../outside/secret.txt');
    expect(fixtures.outside.directoryTarget('a/b')).toBe('../../../outside/directory');
    await fixtures.makeDirectory('a/b');
    await fixtures.symlink('a/b/l', fixtures.outside.fileTarget('a/b'));
    expect(volume.readFileSync('/workspace/a/b/l', 'utf8')).toBe('OUTSIDE');
  });

  it('observes kinds and bytes without following links', async () => {
    const { fixtures } = testbed();
    await fixtures.writeFile('f', 'x');
    await fixtures.symlink('l', 'f');
    await fixtures.fifo('q');
    expect(await Promise.all(['f', 'l', 'q', '.', 'none', 'f/x'].map((path) => fixtures.kindOf(path)))).toEqual([
      'file',
      'symlink',
      'other',
      'directory',
      'missing',
      'missing',
    ]);
    expect(await fixtures.readFile('l')).toBeNull();
  });
});
