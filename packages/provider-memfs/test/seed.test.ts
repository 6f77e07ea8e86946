import { execFileSync } from 'node:child_process';
import * as host from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memfs } from 'memfs';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_LINKS_AREA, createMemfsProvider } from '../src/index.js';
import { createMemfsFixtures } from '../src/testing.js';
import { bytesOf, failsWith, p, text } from './helpers.js';

const cleanups: string[] = [];
afterEach(() => {
  for (const directory of cleanups.splice(0)) {
    // A 0o555 directory would stop a non-root user from removing its children.
    if (host.existsSync(join(directory, 'seed', 'locked'))) host.chmodSync(join(directory, 'seed', 'locked'), 0o755);
    host.rmSync(directory, { recursive: true, force: true });
  }
});

/** A host tree holding every kind of entry the seed must carry over. */
function makeHostTree(): { seed: string; outside: string } {
  const base = host.mkdtempSync(join(tmpdir(), 'libos-memfs-seed-'));
  cleanups.push(base);
  const seed = join(base, 'seed');
  const outside = join(base, 'outside');
  host.mkdirSync(join(seed, 'dir', 'sub'), { recursive: true });
  host.mkdirSync(outside);
  host.writeFileSync(join(seed, 'plain.txt'), 'plain');
  host.writeFileSync(join(seed, 'dir', 'sub', 'deep.txt'), 'deep');
  host.writeFileSync(join(seed, 'readonly.txt'), 'ro', { mode: 0o444 });
  host.chmodSync(join(seed, 'readonly.txt'), 0o444);
  host.writeFileSync(join(seed, 'pair-a'), 'pair');
  host.linkSync(join(seed, 'pair-a'), join(seed, 'dir', 'pair-b'));
  host.writeFileSync(join(outside, 'shared.txt'), 'shared');
  host.linkSync(join(outside, 'shared.txt'), join(seed, 'from-outside.txt'));
  host.symlinkSync('dir/sub/deep.txt', join(seed, 'relative-link'));
  host.symlinkSync('/etc/passwd', join(seed, 'absolute-link'));
  host.symlinkSync('../../outside', join(seed, 'dir', 'escape-link'));
  host.symlinkSync('missing-target', join(seed, 'dangling-link'));
  host.symlinkSync('dir', join(seed, 'dir-link'));
  execFileSync('mkfifo', [join(seed, 'dir', 'pipe')]);
  host.writeFileSync(join(seed, '\u{1F600}'), 'astral');
  host.writeFileSync(join(seed, '\uFF5E'), 'bmp');
  host.mkdirSync(join(seed, 'locked'));
  host.writeFileSync(join(seed, 'locked', 'inside.txt'), 'inside');
  host.chmodSync(join(seed, 'locked'), 0o555);
  host.chmodSync(join(seed, 'dir', 'sub'), 0o750);
  host.utimesSync(join(seed, 'plain.txt'), new Date('2020-01-02T03:04:05.678Z'), new Date('2021-02-03T04:05:06.789Z'));
  host.utimesSync(join(seed, 'dir'), new Date('2020-01-02T03:04:05.678Z'), new Date('2019-05-06T07:08:09.123Z'));
  return { seed, outside };
}

/** Walks the host tree with lstat: what disk says each path is and whether a provider must refuse it. */
function hostExpectations(root: string, relative = ''): Array<{ path: string; kind: string; refused: string | null }> {
  const results: Array<{ path: string; kind: string; refused: string | null }> = [];
  for (const name of host.readdirSync(join(root, relative))) {
    const path = relative === '' ? name : `${relative}/${name}`;
    const stats = host.lstatSync(join(root, path));
    if (stats.isSymbolicLink()) results.push({ path, kind: 'symlink', refused: 'symlink_refused' });
    else if (stats.isDirectory()) {
      results.push({ path, kind: 'directory', refused: 'not_a_file' });
      results.push(...hostExpectations(root, path));
    } else if (stats.isFile()) results.push({ path, kind: 'file', refused: stats.nlink > 1 ? 'hard_link_refused' : null });
    else results.push({ path, kind: 'other', refused: 'not_a_file' });
  }
  return results;
}

describe('seed', () => {
  it('copies kinds, bytes, link targets, modes and mtimes', async () => {
    const { seed } = makeHostTree();
    const { fs } = memfs({}, '/');
    const provider = createMemfsProvider({ seed, volume: fs });
    const names = (await provider.listDirectory(p('.'), { limit: 100 })).entries.map((entry) => `${entry.name}:${entry.kind}`);
    expect(names).toEqual([
      'absolute-link:symlink',
      'dangling-link:symlink',
      'dir:directory',
      'dir-link:symlink',
      'from-outside.txt:file',
      'locked:directory',
      'pair-a:file',
      'plain.txt:file',
      'readonly.txt:file',
      'relative-link:symlink',
      '\uFF5E:file',
      '\u{1F600}:file',
    ]);
    expect((await provider.stat(p('dir/pipe'))).kind).toBe('other');
    expect(text((await provider.readFile(p('dir/sub/deep.txt'), { maxBytes: 100 })).bytes)).toBe('deep');
    expect(fs.readlinkSync('/workspace/absolute-link')).toBe('/etc/passwd');
    expect(fs.readlinkSync('/workspace/dir/escape-link')).toBe('../../outside');
    expect(fs.readlinkSync('/workspace/relative-link')).toBe('dir/sub/deep.txt');
    expect(fs.lstatSync('/workspace/readonly.txt').mode & 0o7777).toBe(0o444);
    expect(fs.lstatSync('/workspace/locked').mode & 0o7777).toBe(0o555);
    expect(fs.lstatSync('/workspace/dir/sub').mode & 0o7777).toBe(0o750);
    expect((await provider.stat(p('plain.txt'))).modifiedAt).toBe('2021-02-03T04:05:06.789Z');
    expect((await provider.stat(p('dir'))).modifiedAt).toBe('2019-05-06T07:08:09.123Z');
    // Node rounds a stat's sub-millisecond mtime into its Date; the seed copies that Date.
    expect(fs.lstatSync('/workspace').mtimeMs).toBe(host.statSync(seed).mtime.getTime());
  });

  it('keeps an in-tree hard link pair as one inode', () => {
    const { seed } = makeHostTree();
    const { fs } = memfs({}, '/');
    createMemfsProvider({ seed, volume: fs });
    const first = fs.lstatSync('/workspace/pair-a');
    const second = fs.lstatSync('/workspace/dir/pair-b');
    expect(first.ino).toBe(second.ino);
    expect([first.nlink, second.nlink]).toEqual([2, 2]);
  });

  it('gives a file linked from outside the seed a twin outside the root', async () => {
    const { seed } = makeHostTree();
    const { fs } = memfs({}, '/');
    const provider = createMemfsProvider({ seed, volume: fs });
    expect(fs.lstatSync('/workspace/from-outside.txt').nlink).toBe(2);
    expect(fs.readdirSync(SEED_LINKS_AREA)).toHaveLength(1);
    await failsWith(provider.readFile(p('from-outside.txt'), { maxBytes: 10 }), 'hard_link_refused');
    expect((await provider.listDirectory(p('.'), { limit: 100 })).entries.some((entry) => entry.name.includes('libos'))).toBe(false);
  });

  it('refuses exactly what the same tree on disk refuses', async () => {
    const { seed } = makeHostTree();
    const provider = createMemfsProvider({ seed });
    const expectations = hostExpectations(seed);
    expect(expectations.length).toBeGreaterThan(15);
    for (const { path, kind, refused } of expectations) {
      expect((await provider.stat(p(path))).kind, path).toBe(kind);
      const read = provider.readFile(p(path), { maxBytes: 1000 });
      if (refused === null) expect((await read).truncated, path).toBe(false);
      else await failsWith(read, refused as 'symlink_refused');
    }
    await failsWith(provider.readFile(p('dir-link/sub/deep.txt'), { maxBytes: 10 }), 'symlink_refused');
    await failsWith(provider.listDirectory(p('dir/escape-link'), { limit: 10 }), 'symlink_refused');
    await failsWith(provider.deleteFile(p('dir/pair-b'), { missingOk: false }), 'hard_link_refused');
    await failsWith(provider.writeFile(p('from-outside.txt'), bytesOf('x'), { overwrite: true }), 'hard_link_refused');
  });

  it('writes into the seeded tree and leaves the host untouched', async () => {
    const { seed } = makeHostTree();
    const provider = createMemfsProvider({ seed });
    await provider.writeFile(p('plain.txt'), bytesOf('changed'), { overwrite: true });
    await provider.deleteDirectory(p('dir'), { recursive: true, missingOk: false });
    expect(host.readFileSync(join(seed, 'plain.txt'), 'utf8')).toBe('plain');
    expect(host.existsSync(join(seed, 'dir', 'sub', 'deep.txt'))).toBe(true);
    expect(host.readFileSync(join(seed, 'pair-a'), 'utf8')).toBe('pair');
  });

  it('makes the seed outside area and fixtures coexist', async () => {
    const { seed } = makeHostTree();
    const { fs } = memfs({}, '/');
    createMemfsProvider({ seed, volume: fs });
    const fixtures = createMemfsFixtures(fs);
    expect(text(await fixtures.readFile('plain.txt'))).toBe('plain');
    expect(await fixtures.kindOf('dir/pipe')).toBe('other');
  });

  it('refuses a seed holding a name that is not valid UTF-8', () => {
    const base = host.mkdtempSync(join(tmpdir(), 'libos-memfs-seed-'));
    cleanups.push(base);
    host.mkdirSync(join(base, 'sub'));
    host.writeFileSync(Buffer.concat([Buffer.from(join(base, 'sub')), Buffer.from([0x2f, 0x62, 0x61, 0x64, 0xff])]), 'x');
    let thrown: unknown;
    try {
      createMemfsProvider({ seed: base });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_arguments', details: { path: 'sub/bad\uFFFD' } });
    expect(String((thrown as Error).message)).not.toContain(base);
  });

  it('links a twin to a file whose directory has mode 0o000, and carries loops and sockets as entries', async () => {
    const base = host.mkdtempSync(join(tmpdir(), 'libos-memfs-seed-'));
    cleanups.push(base);
    const seed = join(base, 'seed');
    host.mkdirSync(join(seed, 'closed'), { recursive: true });
    host.writeFileSync(join(base, 'outside.txt'), 'o');
    host.linkSync(join(base, 'outside.txt'), join(seed, 'closed', 'twin.txt'));
    host.symlinkSync('loop-b', join(seed, 'loop-a'));
    host.symlinkSync('loop-a', join(seed, 'loop-b'));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(seed, 'socket'), resolve));
    host.chmodSync(join(seed, 'closed'), 0);
    try {
      const { fs } = memfs({}, '/');
      const provider = createMemfsProvider({ seed, volume: fs });
      expect(fs.lstatSync('/workspace/closed').mode & 0o7777).toBe(0);
      fs.chmodSync('/workspace/closed', 0o700);
      expect(fs.lstatSync('/workspace/closed/twin.txt').nlink).toBe(2);
      await failsWith(provider.readFile(p('closed/twin.txt'), { maxBytes: 10 }), 'hard_link_refused');
      const kinds = (await provider.listDirectory(p('.'), { limit: 10 })).entries.map((entry) => `${entry.name}:${entry.kind}`);
      expect(kinds).toEqual(['closed:directory', 'loop-a:symlink', 'loop-b:symlink', 'socket:other']);
      await failsWith(provider.readFile(p('loop-a'), { maxBytes: 10 }), 'symlink_refused');
      await failsWith(provider.readFile(p('socket'), { maxBytes: 10 }), 'not_a_file');
    } finally {
      host.chmodSync(join(seed, 'closed'), 0o755);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a missing seed, a file as seed and a root that already exists', () => {
    const base = host.mkdtempSync(join(tmpdir(), 'libos-memfs-seed-'));
    cleanups.push(base);
    host.writeFileSync(join(base, 'file'), '');
    expect(() => createMemfsProvider({ seed: join(base, 'none') })).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    expect(() => createMemfsProvider({ seed: join(base, 'file') })).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
    const { fs } = memfs({}, '/');
    fs.mkdirSync('/workspace');
    expect(() => createMemfsProvider({ seed: base, volume: fs })).toThrow(expect.objectContaining({ code: 'invalid_arguments' }));
  });
});
