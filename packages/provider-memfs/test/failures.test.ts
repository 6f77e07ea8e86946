import { memfs } from 'memfs';
import { describe, expect, it } from 'vitest';
import { createMemfsProvider } from '../src/index.js';
import { createMemfsFixtures } from '../src/testing.js';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

/** memfs's own count of open descriptors on one volume (it allows 10,000, then EMFILE). */
const openDescriptors = (vol: unknown): number => (vol as { _core: { openFiles: number } })._core.openFiles;

describe('failure paths', () => {
  it('keeps the open descriptor count flat across every success and refusal', async () => {
    const { fs, vol } = memfs({}, '/');
    const provider = createMemfsProvider({ volume: fs });
    const fixtures = createMemfsFixtures(fs);
    await fixtures.writeFile('f', 'content');
    await fixtures.writeFile('pair', 'x');
    await fixtures.hardLink('pair', 'pair-twin');
    await fixtures.fifo('fifo');
    await fixtures.symlink('link', 'f');
    await fixtures.makeDirectory('dir');
    await fixtures.writeFile('locked', 'x');
    fs.chmodSync('/workspace/locked', 0);
    const write = (path: string, overwrite: boolean, expectedSha256?: string) =>
      provider.writeFile(p(path), bytesOf('new'), expectedSha256 === undefined ? { overwrite } : { overwrite, expectedSha256 });
    const calls: Array<() => Promise<unknown>> = [
      ...['f', 'pair', 'fifo', 'link', 'dir', 'locked', 'missing', 'f/under'].map((path) => () => provider.readFile(p(path), { maxBytes: 3 })),
      () => write('f', true, 'a'.repeat(64)),
      () => write('locked', true, 'a'.repeat(64)),
      () => write('f', false),
      () => write('f', true),
      ...['pair', 'fifo', 'link', 'dir'].map((path) => () => write(path, true)),
      () => write('fresh', false).then(() => provider.deleteFile(p('fresh'), { missingOk: false })),
      () => provider.listDirectory(p('.'), { limit: 2 }),
      () => provider.listDirectory(p('f'), { limit: 2 }),
      () => provider.deleteDirectory(p('dir'), { recursive: false, missingOk: false }),
      () => provider.makeDirectory(p('dir'), { parents: false, existOk: false }),
      () => provider.stat(p('fifo')),
    ];
    const before = openDescriptors(vol);
    const outcomes = new Set<string>();
    for (let round = 0; round < 20_000; round++) {
      const index = round % calls.length;
      outcomes.add(
        await calls[index]!().then(
          () => `${index}:ok`,
          (error: { code?: string }) => `${index}:${String(error.code)}`,
        ),
      );
    }
    expect(openDescriptors(vol)).toBe(before);
    // Every refusal really ran: hard links, kinds, hashes, mode bits and already_exists.
    for (const code of ['hard_link_refused', 'not_a_file', 'symlink_refused', 'content_conflict', 'already_exists', 'provider_failure']) {
      expect(
        [...outcomes].some((outcome) => outcome.endsWith(`:${code}`)),
        code,
      ).toBe(true);
    }
    expect((fs.readdirSync('/workspace') as string[]).filter((name) => name.startsWith('.libos-'))).toEqual([]);
  });

  it('leaves neither the new file nor a descriptor behind when creating it fails midway', async () => {
    const { provider, fixtures, volume } = testbed();
    const original = volume.writeSync.bind(volume);
    let failing = true;
    volume.writeSync = ((...args: Parameters<typeof original>) => {
      if (failing) throw Object.assign(new Error('simulated'), { code: 'EIO' });
      return original(...args);
    }) as typeof volume.writeSync;
    await failsWith(provider.writeFile(p('new.txt'), bytesOf('x'), { overwrite: false }), 'provider_failure');
    await failsWith(provider.writeFile(p('other.txt'), bytesOf('x'), { overwrite: true }), 'provider_failure');
    expect(await fixtures.kindOf('new.txt')).toBe('missing');
    expect(await fixtures.kindOf('other.txt')).toBe('missing');
    failing = false;
    // A retry is not refused by a leftover of the failed attempt.
    expect(await provider.writeFile(p('new.txt'), bytesOf('x'), { overwrite: false })).toEqual({ created: true });
  });

  it('keeps the old file and no temp file when a replace fails midway', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('d/f', 'old');
    const original = volume.fchmodSync.bind(volume);
    volume.fchmodSync = (() => {
      throw Object.assign(new Error('simulated'), { code: 'EIO' });
    }) as typeof volume.fchmodSync;
    await failsWith(provider.writeFile(p('d/f'), bytesOf('new'), { overwrite: true }), 'provider_failure');
    volume.fchmodSync = original;
    expect(text(await fixtures.readFile('d/f'))).toBe('old');
    expect(volume.readdirSync('/workspace/d')).toEqual(['f']);
  });
});
