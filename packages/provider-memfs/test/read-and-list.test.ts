import { describe, expect, it } from 'vitest';
import { bytesOf, failsWith, p, testbed, text } from './helpers.js';

const isoMilliseconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('stat', () => {
  it('reports every kind without following links', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/file.txt', 'abc');
    await fixtures.symlink('d/link', 'file.txt');
    await fixtures.fifo('d/pipe');
    expect(await provider.stat(p('.'))).toMatchObject({ kind: 'directory', sizeBytes: null });
    expect(await provider.stat(p('d'))).toMatchObject({ kind: 'directory', sizeBytes: null });
    const file = await provider.stat(p('d/file.txt'));
    expect(file).toMatchObject({ kind: 'file', sizeBytes: 3 });
    expect(file.modifiedAt).toMatch(isoMilliseconds);
    expect(await provider.stat(p('d/link'))).toMatchObject({ kind: 'symlink', sizeBytes: null });
    expect(await provider.stat(p('d/pipe'))).toMatchObject({ kind: 'other', sizeBytes: null });
    expect(await provider.stat(p('d/none'))).toEqual({ kind: 'missing', sizeBytes: null, modifiedAt: null });
  });

  it('refuses a path through a link, a file or a missing directory', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/file.txt', 'abc');
    await fixtures.symlink('dirlink', 'd');
    await failsWith(provider.stat(p('dirlink/file.txt')), 'symlink_refused');
    await failsWith(provider.stat(p('d/file.txt/x')), 'not_a_directory');
    await failsWith(provider.stat(p('none/x')), 'not_found');
  });
});

describe('listDirectory', () => {
  it('lists one level with kinds, sizes and millisecond times', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/b.txt', 'four');
    await fixtures.makeDirectory('d/a/deeper');
    await fixtures.symlink('d/c', '/nowhere');
    await fixtures.fifo('d/e');
    const listing = await provider.listDirectory(p('d'), { limit: 10 });
    expect(listing.truncated).toBe(false);
    expect(listing.entries.map(({ name, path, kind, sizeBytes }) => ({ name, path, kind, sizeBytes }))).toEqual([
      { name: 'a', path: 'd/a', kind: 'directory', sizeBytes: null },
      { name: 'b.txt', path: 'd/b.txt', kind: 'file', sizeBytes: 4 },
      { name: 'c', path: 'd/c', kind: 'symlink', sizeBytes: null },
      { name: 'e', path: 'd/e', kind: 'other', sizeBytes: null },
    ]);
    for (const entry of listing.entries) expect(entry.modifiedAt).toMatch(isoMilliseconds);
  });

  it('lists the root with root-relative paths and shows a .git entry', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.makeDirectory('.git');
    await fixtures.writeFile('x', '');
    const listing = await provider.listDirectory(p('.'), { limit: 10 });
    expect(listing.entries.map((entry) => entry.path)).toEqual(['.git', 'x']);
  });

  it('orders names by code point, not by UTF-16 unit as memfs readdir does', async () => {
    const { provider, fixtures, volume } = testbed();
    for (const name of ['\u{1F600}', '\uFF5E', 'z', 'A', '\u00E9']) await fixtures.writeFile(`d/${name}`, '');
    expect(volume.readdirSync('/workspace/d')).toEqual(['A', 'z', '\u00E9', '\u{1F600}', '\uFF5E']);
    const names = (await provider.listDirectory(p('d'), { limit: 10 })).entries.map((entry) => entry.name);
    expect(names).toEqual(['A', 'z', '\u00E9', '\uFF5E', '\u{1F600}']);
    const first = await provider.listDirectory(p('d'), { limit: 4 });
    expect(first.entries.map((entry) => entry.name)).toEqual(['A', 'z', '\u00E9', '\uFF5E']);
    expect(first.truncated).toBe(true);
  });

  it('keeps the first limit names of a large directory in any creation order', async () => {
    const { provider, fixtures } = testbed();
    const names = Array.from({ length: 3000 }, (_, index) => `n${((index * 7919) % 3000).toString().padStart(4, '0')}`);
    await fixtures.makeDirectory('big');
    for (const name of names) await fixtures.writeFile(`big/${name}`, '');
    const listing = await provider.listDirectory(p('big'), { limit: 25 });
    expect(listing.truncated).toBe(true);
    expect(listing.entries.map((entry) => entry.name)).toEqual([...names].sort().slice(0, 25));
    const exact = await provider.listDirectory(p('big'), { limit: 3000 });
    expect(exact.truncated).toBe(false);
    expect(exact.entries).toHaveLength(3000);
  });

  it('stats only the returned entries', async () => {
    const { provider, fixtures, volume } = testbed();
    for (let index = 0; index < 50; index++) await fixtures.writeFile(`d/f${index}`, '');
    const original = volume.lstatSync.bind(volume);
    let calls = 0;
    volume.lstatSync = ((...args: Parameters<typeof original>) => {
      calls++;
      return original(...args);
    }) as typeof volume.lstatSync;
    await provider.listDirectory(p('d'), { limit: 3 });
    // The walk lstats the root and `d`; then one per returned entry.
    expect(calls).toBe(2 + 3);
  });

  it('refuses what is not a directory', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('file', 'x');
    await fixtures.fifo('pipe');
    await fixtures.makeDirectory('d');
    await fixtures.symlink('dirlink', 'd');
    await failsWith(provider.listDirectory(p('file'), { limit: 5 }), 'not_a_directory');
    await failsWith(provider.listDirectory(p('pipe'), { limit: 5 }), 'not_a_directory');
    await failsWith(provider.listDirectory(p('dirlink'), { limit: 5 }), 'symlink_refused');
    await failsWith(provider.listDirectory(p('none'), { limit: 5 }), 'not_found');
    await failsWith(provider.listDirectory(p('file/x'), { limit: 5 }), 'not_a_directory');
  });
});

describe('readFile', () => {
  it('reads a prefix and says whether the file holds more', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('f', 'hello world');
    await fixtures.writeFile('empty', '');
    expect(await provider.readFile(p('f'), { maxBytes: 5 })).toMatchObject({ truncated: true });
    expect(text((await provider.readFile(p('f'), { maxBytes: 5 })).bytes)).toBe('hello');
    const whole = await provider.readFile(p('f'), { maxBytes: 11 });
    expect([text(whole.bytes), whole.truncated]).toEqual(['hello world', false]);
    const more = await provider.readFile(p('f'), { maxBytes: 1000 });
    expect([text(more.bytes), more.truncated]).toEqual(['hello world', false]);
    const empty = await provider.readFile(p('empty'), { maxBytes: 1 });
    expect([empty.bytes.length, empty.truncated]).toEqual([0, false]);
  });

  it('never reads more than maxBytes + 1 bytes from the volume', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('big', new Uint8Array(1 << 20));
    const original = volume.readSync.bind(volume);
    let requested = 0;
    volume.readSync = ((fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => {
      requested += length;
      return original(fd, buffer, offset, length, position);
    }) as typeof volume.readSync;
    const read = await provider.readFile(p('big'), { maxBytes: 10 });
    expect(read.bytes.length).toBe(10);
    expect(requested).toBeLessThanOrEqual(11);
  });

  it('refuses everything but a regular file with one name', async () => {
    const { provider, fixtures } = testbed();
    await fixtures.writeFile('d/file', 'x');
    await fixtures.hardLink('d/file', 'd/twin');
    await fixtures.fifo('pipe');
    await failsWith(provider.readFile(p('d'), { maxBytes: 5 }), 'not_a_file');
    await failsWith(provider.readFile(p('.'), { maxBytes: 5 }), 'not_a_file');
    await failsWith(provider.readFile(p('pipe'), { maxBytes: 5 }), 'not_a_file');
    const linked = await failsWith(provider.readFile(p('d/file'), { maxBytes: 5 }), 'hard_link_refused');
    expect(linked.effect).toBe('none');
    await failsWith(provider.readFile(p('d/twin'), { maxBytes: 5 }), 'hard_link_refused');
    await failsWith(provider.readFile(p('d/none'), { maxBytes: 5 }), 'not_found');
    await failsWith(provider.readFile(p('none/file'), { maxBytes: 5 }), 'not_found');
    await failsWith(provider.readFile(p('pipe/file'), { maxBytes: 5 }), 'not_a_directory');
  });

  it('reads a file again once its second name is gone', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('file', 'x');
    await fixtures.hardLink('file', 'twin');
    await failsWith(provider.readFile(p('file'), { maxBytes: 5 }), 'hard_link_refused');
    volume.unlinkSync('/workspace/twin');
    expect(text((await provider.readFile(p('file'), { maxBytes: 5 })).bytes)).toBe('x');
    await provider.writeFile(p('file'), bytesOf('y'), { overwrite: true });
  });

  it('reports a mode-bit refusal as provider_failure with effect none', async () => {
    const { provider, fixtures, volume } = testbed();
    await fixtures.writeFile('sealed', 'x');
    volume.chmodSync('/workspace/sealed', 0o000);
    const error = await failsWith(provider.readFile(p('sealed'), { maxBytes: 5 }), 'provider_failure');
    expect(error.effect).toBe('none');
    expect(error.message).toBe("The host refused access to 'sealed'.");
  });
});
