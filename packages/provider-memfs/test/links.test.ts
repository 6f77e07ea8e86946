import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { describe, expect, it } from 'vitest';
import type { MemfsFixtures } from '../src/testing.js';
import { bytesOf, failsWith, p, testbed } from './helpers.js';

type Operation = [name: string, call: (provider: FileSystemProviderV1, path: WorkspacePath) => Promise<unknown>];

const operations: Operation[] = [
  ['listDirectory', (provider, path) => provider.listDirectory(path, { limit: 10 })],
  ['readFile', (provider, path) => provider.readFile(path, { maxBytes: 100 })],
  ['writeFile overwrite', (provider, path) => provider.writeFile(path, bytesOf('pwned'), { overwrite: true })],
  ['writeFile exclusive', (provider, path) => provider.writeFile(path, bytesOf('pwned'), { overwrite: false })],
  ['makeDirectory', (provider, path) => provider.makeDirectory(path, { parents: true, existOk: true })],
  ['deleteFile', (provider, path) => provider.deleteFile(path, { missingOk: true })],
  ['deleteDirectory', (provider, path) => provider.deleteDirectory(path, { recursive: false, missingOk: true })],
  ['deleteDirectory recursive', (provider, path) => provider.deleteDirectory(path, { recursive: true, missingOk: true })],
];

async function linkedWorkspace(fixtures: MemfsFixtures): Promise<void> {
  await fixtures.makeDirectory('d');
  await fixtures.writeFile('d/inside.txt', 'inside');
  await fixtures.symlink('file-link', fixtures.outside.fileTarget('.'));
  await fixtures.symlink('dir-link', fixtures.outside.directoryTarget('.'));
  await fixtures.symlink('absolute', '/outside/directory');
  await fixtures.symlink('d/nested-link', fixtures.outside.fileTarget('d'));
  await fixtures.symlink('d/inner-link', 'inside.txt');
  await fixtures.symlink('d/dangling', 'nowhere');
  await fixtures.symlink('d/loop', 'loop');
  await fixtures.symlink('d/ping', 'pong');
  await fixtures.symlink('d/pong', 'ping');
}

const leafLinks = ['file-link', 'dir-link', 'absolute', 'd/nested-link', 'd/inner-link', 'd/dangling', 'd/loop', 'd/ping'];
const throughLinks = ['dir-link/secret.txt', 'absolute/secret.txt', 'dir-link/new/deeper', 'd/dangling/x', 'd/loop/x', 'd/ping/x'];

describe('links are never followed', () => {
  it('the fixture links really do reach outside when followed', async () => {
    const { fixtures, volume } = testbed();
    await linkedWorkspace(fixtures);
    expect(volume.readFileSync('/workspace/file-link', 'utf8')).toBe('OUTSIDE');
    expect(volume.readFileSync('/workspace/dir-link/secret.txt', 'utf8')).toBe('OUTSIDE');
    expect(volume.readFileSync('/workspace/d/nested-link', 'utf8')).toBe('OUTSIDE');
  });

  for (const [name, call] of operations) {
    it(`${name} refuses a link as the target or any component`, async () => {
      const { provider, fixtures } = testbed();
      await linkedWorkspace(fixtures);
      const before = await fixtures.outside.fingerprint();
      for (const path of [...leafLinks, ...throughLinks]) {
        const error = await failsWith(call(provider, p(path)), 'symlink_refused');
        expect(error.effect).toBe('none');
        expect(error.message).not.toMatch(/\/workspace|\/outside/);
      }
      expect(await fixtures.outside.fingerprint()).toBe(before);
      for (const path of leafLinks) expect(await fixtures.kindOf(path)).toBe('symlink');
      expect(await fixtures.kindOf('d/nowhere')).toBe('missing');
      expect(await fixtures.kindOf('d/inside.txt')).toBe('file');
    });
  }

  it('stat reports a final link as a symlink and refuses a link on the way', async () => {
    const { provider, fixtures } = testbed();
    await linkedWorkspace(fixtures);
    for (const path of leafLinks) expect((await provider.stat(p(path))).kind).toBe('symlink');
    for (const path of throughLinks) await failsWith(provider.stat(p(path)), 'symlink_refused');
  });

  it('names the link in the message when it is a middle component', async () => {
    const { provider, fixtures } = testbed();
    await linkedWorkspace(fixtures);
    const error = await failsWith(provider.readFile(p('dir-link/secret.txt'), { maxBytes: 10 }), 'symlink_refused');
    expect(error.message).toBe("'dir-link/secret.txt' passes through 'dir-link', a symbolic link or a mount point, which is never followed.");
    expect(error.details).toEqual({ path: 'dir-link/secret.txt', link: 'dir-link' });
  });

  it('lists links as entries of kind symlink', async () => {
    const { provider, fixtures } = testbed();
    await linkedWorkspace(fixtures);
    const listing = await provider.listDirectory(p('d'), { limit: 20 });
    expect(listing.entries.filter((entry) => entry.kind === 'symlink').map((entry) => entry.name)).toEqual([
      'dangling',
      'inner-link',
      'loop',
      'nested-link',
      'ping',
      'pong',
    ]);
  });
});

describe('hard links', () => {
  it('refuses a file linked from outside the workspace on read, overwrite and delete', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.outside.hardLinkFromOutside('linked.txt');
    const before = await fixtures.outside.fingerprint();
    await failsWith(provider.readFile(p('linked.txt'), { maxBytes: 100 }), 'hard_link_refused');
    await failsWith(provider.writeFile(p('linked.txt'), bytesOf('pwned'), { overwrite: true }), 'hard_link_refused');
    await failsWith(provider.deleteFile(p('linked.txt'), { missingOk: false }), 'hard_link_refused');
    expect(await fixtures.outside.fingerprint()).toBe(before);
    expect((await provider.stat(p('linked.txt'))).kind).toBe('file');
  });

  it('links an existing workspace file to the outside area too', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('mine.txt', 'mine');
    await fixtures.outside.hardLinkFromOutside('mine.txt');
    await failsWith(provider.readFile(p('mine.txt'), { maxBytes: 100 }), 'hard_link_refused');
  });
});
