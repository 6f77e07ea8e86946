import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

describe('writeFile', () => {
  it('creates a file and its missing parents', async () => {
    const { provider, fixtures } = testbed();
    expect(await provider.writeFile(p('a/b/c.txt'), bytesOf('new'), { overwrite: true })).toEqual({ created: true });
    expect(text(await fixtures.readFile('a/b/c.txt'))).toBe('new');
    expect(await fixtures.kindOf('a/b')).toBe('directory');
  });

  it('replaces a file atomically, keeping its mode and leaving no temp file', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('d/f', 'old');
    volume.chmodSync('/workspace/d/f', 0o640);
    const before = volume.lstatSync('/workspace/d/f');
    // A reader that opened the old file keeps seeing the old bytes: the new ones went to another inode.
    const reader = volume.openSync('/workspace/d/f', 'r');
    expect(await provider.writeFile(p('d/f'), bytesOf('brand new'), { overwrite: true })).toEqual({ created: false });
    expect(volume.readFileSync(reader, 'utf8')).toBe('old');
    volume.closeSync(reader);
    const after = volume.lstatSync('/workspace/d/f');
    expect(text(await fixtures.readFile('d/f'))).toBe('brand new');
    expect(after.mode & 0o7777).toBe(0o640);
    expect(after.ino).not.toBe(before.ino);
    expect(after.nlink).toBe(1);
    expect(volume.readdirSync('/workspace/d')).toEqual(['f']);
  });

  it('keeps the directory child count right across replaces (memfs rename-over bug)', async () => {
    const { provider, volume } = testbed();
    for (let round = 0; round < 3; round++) await provider.writeFile(p('d/f'), bytesOf(`v${round}`), { overwrite: true });
    volume.unlinkSync('/workspace/d/f');
    // A rename onto an existing name leaves memfs's counter too high, and a plain rmdir then says ENOTEMPTY.
    expect(() => volume.rmdirSync('/workspace/d')).not.toThrow();
  });

  it('refuses with overwrite false by exclusive creation, leaving the file alone', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'keep');
    const error = await failsWith(provider.writeFile(p('f'), bytesOf('x'), { overwrite: false }), 'already_exists');
    expect(error.effect).toBe('none');
    expect(text(await fixtures.readFile('f'))).toBe('keep');
    expect(await provider.writeFile(p('g'), bytesOf('x'), { overwrite: false })).toEqual({ created: true });
  });

  it('says the wrong kind first: a directory or special file is not_a_file', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.makeDirectory('d');
    await fixtures.fifo('pipe');
    for (const overwrite of [true, false]) {
      await failsWith(provider.writeFile(p('d'), bytesOf('x'), { overwrite }), 'not_a_file');
      await failsWith(provider.writeFile(p('pipe'), bytesOf('x'), { overwrite }), 'not_a_file');
      await failsWith(provider.writeFile(p('.'), bytesOf('x'), { overwrite }), 'not_a_file');
    }
    expect(await fixtures.kindOf('pipe')).toBe('other');
  });

  it('refuses a hard-linked file, a link and a path through a file', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'x');
    await fixtures.hardLink('f', 'twin');
    await fixtures.symlink('dangling', 'nowhere');
    await failsWith(provider.writeFile(p('f'), bytesOf('y'), { overwrite: true }), 'hard_link_refused');
    await failsWith(provider.writeFile(p('dangling'), bytesOf('y'), { overwrite: true }), 'symlink_refused');
    await failsWith(provider.writeFile(p('dangling'), bytesOf('y'), { overwrite: false }), 'symlink_refused');
    await failsWith(provider.writeFile(p('f/x/y'), bytesOf('y'), { overwrite: true }), 'not_a_directory');
    expect(await fixtures.kindOf('nowhere')).toBe('missing');
    expect(text(await fixtures.readFile('twin'))).toBe('x');
  });

  it('checks expectedSha256 just before replacing', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'one');
    await failsWith(provider.writeFile(p('f'), bytesOf('two'), { overwrite: true, expectedSha256: 'missing' }), 'content_conflict');
    const wrong = await failsWith(
      provider.writeFile(p('f'), bytesOf('two'), { overwrite: true, expectedSha256: sha256('other') }),
      'content_conflict',
    );
    expect(wrong.effect).toBe('none');
    expect(text(await fixtures.readFile('f'))).toBe('one');
    expect(await provider.writeFile(p('f'), bytesOf('two'), { overwrite: true, expectedSha256: sha256('one') })).toEqual({ created: false });
    expect(text(await fixtures.readFile('f'))).toBe('two');
    await failsWith(provider.writeFile(p('g'), bytesOf('x'), { overwrite: true, expectedSha256: sha256('') }), 'content_conflict');
    expect(await fixtures.kindOf('g')).toBe('missing');
    expect(await provider.writeFile(p('g'), bytesOf('x'), { overwrite: true, expectedSha256: 'missing' })).toEqual({ created: true });
  });

  it('creates new files and directories with umask-like modes', async () => {
    const { provider, volume } = testbed();
    await provider.writeFile(p('d/f'), bytesOf(''), { overwrite: true });
    expect(volume.lstatSync('/workspace/d/f').mode & 0o7777).toBe(0o644);
    expect(volume.lstatSync('/workspace/d').mode & 0o7777).toBe(0o755);
  });

  it('reports a volume permission failure as provider_failure without a volume path', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.makeDirectory('locked');
    volume.chmodSync('/workspace/locked', 0o555);
    const error = await failsWith(provider.writeFile(p('locked/f'), bytesOf('x'), { overwrite: true }), 'provider_failure');
    expect(error.message).toContain("'locked/f'");
    expect(error.message).not.toContain('/workspace');
  });
});

describe('makeDirectory', () => {
  it('creates a directory, with or without parents', async () => {
    const { provider, fixtures } = testbed();
    expect(await provider.makeDirectory(p('a'), { parents: false, existOk: false })).toEqual({ created: true });
    expect(await provider.makeDirectory(p('a/b/c'), { parents: true, existOk: false })).toEqual({ created: true });
    expect(await fixtures.kindOf('a/b/c')).toBe('directory');
    await failsWith(provider.makeDirectory(p('x/y'), { parents: false, existOk: true }), 'not_found');
    expect(await fixtures.kindOf('x')).toBe('missing');
  });

  it('handles an existing directory by existOk, the root included', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.makeDirectory('d');
    expect(await provider.makeDirectory(p('d'), { parents: true, existOk: true })).toEqual({ created: false });
    await failsWith(provider.makeDirectory(p('d'), { parents: true, existOk: false }), 'already_exists');
    expect(await provider.makeDirectory(p('.'), { parents: true, existOk: true })).toEqual({ created: false });
    await failsWith(provider.makeDirectory(p('.'), { parents: true, existOk: false }), 'already_exists');
  });

  it('refuses a non-directory or a link at the path or on the way', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'x');
    await fixtures.fifo('pipe');
    await fixtures.makeDirectory('d');
    await fixtures.symlink('dirlink', 'd');
    await fixtures.symlink('dangling', 'gone');
    await failsWith(provider.makeDirectory(p('f'), { parents: true, existOk: true }), 'not_a_directory');
    await failsWith(provider.makeDirectory(p('pipe'), { parents: true, existOk: true }), 'not_a_directory');
    await failsWith(provider.makeDirectory(p('f/x'), { parents: true, existOk: true }), 'not_a_directory');
    await failsWith(provider.makeDirectory(p('dirlink'), { parents: true, existOk: true }), 'symlink_refused');
    await failsWith(provider.makeDirectory(p('dirlink/x/y'), { parents: true, existOk: true }), 'symlink_refused');
    // memfs's own recursive mkdir would replace the dangling link with a directory.
    await failsWith(provider.makeDirectory(p('dangling'), { parents: true, existOk: true }), 'symlink_refused');
    expect(await fixtures.kindOf('d/x')).toBe('missing');
    expect(await fixtures.kindOf('dangling')).toBe('symlink');
    expect(await fixtures.kindOf('gone')).toBe('missing');
  });
});

describe('writeFile temp names', () => {
  it('steps over a workspace file that already has the temp name it picked', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('d/f', 'old');
    const original = volume.openSync.bind(volume);
    const squatted: string[] = [];
    volume.openSync = ((file: string, flags: number, mode?: number) => {
      // Someone else's file appears under the first two temp names just before the provider opens them.
      if (file.includes('.libos-') && squatted.length < 2) {
        volume.writeFileSync(file, 'mine');
        squatted.push(file);
      }
      return original(file, flags, mode);
    }) as typeof volume.openSync;
    await provider.writeFile(p('d/f'), bytesOf('new'), { overwrite: true });
    expect(text(await fixtures.readFile('d/f'))).toBe('new');
    expect(squatted).toHaveLength(2);
    for (const file of squatted) expect(volume.readFileSync(file, 'utf8')).toBe('mine');
    expect(volume.readdirSync('/workspace/d')).toHaveLength(3);
  });
});
