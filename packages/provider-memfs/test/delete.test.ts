import { describe, expect, it } from 'vitest';
import { failsWith, p, testbed, text } from './helpers.js';

describe('deleteFile', () => {
  it('deletes a regular file, or reports a missing one with missingOk', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/f', 'x');
    expect(await provider.deleteFile(p('d/f'), { missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('d/f')).toBe('missing');
    expect(await provider.deleteFile(p('d/f'), { missingOk: true })).toEqual({ deleted: false });
    expect(await provider.deleteFile(p('none/f'), { missingOk: true })).toEqual({ deleted: false });
    await failsWith(provider.deleteFile(p('d/f'), { missingOk: false }), 'not_found');
    await failsWith(provider.deleteFile(p('none/f'), { missingOk: false }), 'not_found');
  });

  it('refuses directories, special files, links and hard links', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/f', 'x');
    await fixtures.hardLink('d/f', 'twin');
    await fixtures.writeFile('target', 'T');
    await fixtures.symlink('link', 'target');
    await fixtures.fifo('pipe');
    await failsWith(provider.deleteFile(p('d'), { missingOk: true }), 'not_a_file');
    await failsWith(provider.deleteFile(p('.'), { missingOk: true }), 'not_a_file');
    await failsWith(provider.deleteFile(p('pipe'), { missingOk: true }), 'not_a_file');
    await failsWith(provider.deleteFile(p('link'), { missingOk: true }), 'symlink_refused');
    await failsWith(provider.deleteFile(p('twin'), { missingOk: true }), 'hard_link_refused');
    await failsWith(provider.deleteFile(p('target/x'), { missingOk: true }), 'not_a_directory');
    expect([await fixtures.kindOf('link'), text(await fixtures.readFile('target')), text(await fixtures.readFile('d/f'))]).toEqual([
      'symlink',
      'T',
      'x',
    ]);
  });
});

describe('deleteDirectory', () => {
  it('removes an empty directory and refuses a non-empty one without recursive', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.makeDirectory('empty');
    await fixtures.writeFile('full/f', 'x');
    expect(await provider.deleteDirectory(p('empty'), { recursive: false, missingOk: false })).toEqual({ deleted: true });
    await failsWith(provider.deleteDirectory(p('full'), { recursive: false, missingOk: false }), 'directory_not_empty');
    expect(await fixtures.kindOf('full/f')).toBe('file');
  });

  it('handles missing, wrong kinds, links and the root', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'x');
    await fixtures.makeDirectory('d/inner');
    await fixtures.symlink('dirlink', 'd');
    for (const recursive of [false, true]) {
      expect(await provider.deleteDirectory(p('none'), { recursive, missingOk: true })).toEqual({ deleted: false });
      await failsWith(provider.deleteDirectory(p('none'), { recursive, missingOk: false }), 'not_found');
      await failsWith(provider.deleteDirectory(p('f'), { recursive, missingOk: true }), 'not_a_directory');
      await failsWith(provider.deleteDirectory(p('dirlink'), { recursive, missingOk: true }), 'symlink_refused');
      await failsWith(provider.deleteDirectory(p('dirlink/inner'), { recursive, missingOk: true }), 'symlink_refused');
      await failsWith(provider.deleteDirectory(p('.'), { recursive, missingOk: true }), 'root_refused');
    }
    expect(await fixtures.kindOf('d/inner')).toBe('directory');
  });

  it('removes a whole tree bottom-up without following links', async () => {
    const { provider, fixtures, volume } = testbed();
    const outsideBefore = await fixtures.outside.fingerprint();
    await fixtures.writeFile('t/a/b/c.txt', 'c');
    await fixtures.writeFile('t/a/pair1', 'pair');
    await fixtures.hardLink('t/a/pair1', 't/pair2');
    await fixtures.writeFile('keep/shared', 'shared');
    await fixtures.hardLink('keep/shared', 't/shared-twin');
    await fixtures.symlink('t/escape', fixtures.outside.directoryTarget('t'));
    await fixtures.symlink('t/a/file-escape', fixtures.outside.fileTarget('t/a'));
    await fixtures.symlink('t/keep-link', '../keep');
    await fixtures.fifo('t/a/pipe');
    expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await fixtures.kindOf('t')).toBe('missing');
    expect(await fixtures.outside.fingerprint()).toBe(outsideBefore);
    expect(text(await fixtures.readFile('keep/shared'))).toBe('shared');
    // unlink (not rmSync) keeps the surviving name's count right, so it is an ordinary file again.
    expect(volume.lstatSync('/workspace/keep/shared').nlink).toBe(1);
    expect(text((await provider.readFile(p('keep/shared'), { maxBytes: 10 })).bytes)).toBe('shared');
    expect(volume.readdirSync('/workspace')).toEqual(['keep']);
  });

  it('refuses a tree holding a .git alias at any depth before deleting anything', async () => {
    for (const alias of ['.git', '.GIT', '.git.', 'git~1', '.git::$INDEX_ALLOCATION']) {
      const { provider, fixtures } = testbed();
      await fixtures.writeFile('t/first.txt', '1');
      await fixtures.makeDirectory(`t/deep/er/${alias}`);
      await fixtures.writeFile('t/zzz.txt', 'z');
      const error = await failsWith(provider.deleteDirectory(p('t'), { recursive: true, missingOk: false }), 'protected_path');
      expect(error.effect).toBe('none');
      expect(error.message).toContain(`t/deep/er/${alias}`);
      expect([await fixtures.kindOf('t/first.txt'), await fixtures.kindOf('t/zzz.txt')]).toEqual(['file', 'file']);
    }
  });

  it('deletes names that only look like .git', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('t/.gitignore', '');
    await fixtures.makeDirectory('t/.github');
    await fixtures.writeFile('t/x.git', '');
    expect(await provider.deleteDirectory(p('t'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
  });

  it('removes a directory emptied after replaces (stale child counter)', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('d/f', 'x');
    volume.writeFileSync('/workspace/d/tmp', 'y');
    volume.renameSync('/workspace/d/tmp', '/workspace/d/f'); // memfs bug: counter now one too high
    volume.unlinkSync('/workspace/d/f');
    expect(await provider.deleteDirectory(p('d'), { recursive: false, missingOk: false })).toEqual({ deleted: true });
  });
});
