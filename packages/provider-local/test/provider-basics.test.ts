import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_PATH, resolveWorkspacePath } from '@libos/core';
import type { FileSystemProviderV1, WorkspacePath } from '@libos/core';
import { createLocalProvider } from '../src/index.js';
import { createLocalProviderWithHooks } from '../src/testing.js';
import { expectFailure } from './expect-error.js';
import { createLocalTestbed, createSandbox } from './local-testbed.js';
import type { Sandbox } from './local-testbed.js';

const p = (text: string): WorkspacePath => resolveWorkspacePath(ROOT_PATH, text);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function testbed(): { sandbox: Sandbox; provider: FileSystemProviderV1 } {
  const bed = createLocalTestbed();
  cleanups.push(
    () => bed.sandbox.remove(),
    () => bed.provider.close(),
  );
  return bed;
}

describe('startup', () => {
  it('refuses a root that is missing or not a directory', () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.remove());
    writeFileSync(join(sandbox.base, 'file'), 'x');
    for (const root of [join(sandbox.base, 'nope'), join(sandbox.base, 'file')]) {
      expect(() => createLocalProvider({ root })).toThrow(expect.objectContaining({ code: 'provider_failure' }));
    }
  });

  it('refuses to start when the fd directory is not a real procfs (fail closed)', () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.remove());
    const fake = join(sandbox.base, 'fake-fd');
    mkdirSync(fake);
    expect(() => createLocalProviderWithHooks({ root: sandbox.root }, { procFdDirectory: fake })).toThrow(
      expect.objectContaining({ code: 'provider_failure' }),
    );
  });

  it('refuses a procfs fd directory that belongs to another process (the root fd does not resolve there)', () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.remove());
    // /proc/1/fd is procfs, but its fd numbers are another process's.
    expect(() => createLocalProviderWithHooks({ root: sandbox.root }, { procFdDirectory: '/proc/1/fd' })).toThrow(
      expect.objectContaining({ code: 'provider_failure' }),
    );
  });

  it('keeps working on the pinned root when its host path is renamed away', async () => {
    const { sandbox, provider } = testbed();
    writeFileSync(sandbox.at('a.txt'), 'pinned');
    const { renameSync } = await import('node:fs');
    renameSync(sandbox.root, join(sandbox.base, 'moved'));
    mkdirSync(sandbox.root);
    writeFileSync(sandbox.at('a.txt'), 'impostor');
    expect(text((await provider.readFile(p('a.txt'), { maxBytes: 100 })).bytes)).toBe('pinned');
  });

  it('fails with not_found once the root itself is deleted', async () => {
    const { sandbox, provider } = testbed();
    rmSync(sandbox.root, { recursive: true });
    await expectFailure(provider.listDirectory(ROOT_PATH, { limit: 10 }), 'not_found');
    await expectFailure(provider.readFile(p('x'), { maxBytes: 10 }), 'not_found');
    await expectFailure(provider.writeFile(p('x'), bytes('x'), { overwrite: true }), 'not_found');
  });
});

describe('read and stat', () => {
  it('reads a prefix and tells whether more exists', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('a/b/c'), { recursive: true });
    writeFileSync(sandbox.at('a/b/c/f.txt'), 'hello world');
    expect(await provider.readFile(p('a/b/c/f.txt'), { maxBytes: 5 })).toEqual({ bytes: bytes('hello'), truncated: true });
    expect(await provider.readFile(p('a/b/c/f.txt'), { maxBytes: 11 })).toEqual({ bytes: bytes('hello world'), truncated: false });
    expect(await provider.readFile(p('a/b/c/f.txt'), { maxBytes: 1000 })).toEqual({ bytes: bytes('hello world'), truncated: false });
    writeFileSync(sandbox.at('empty'), '');
    expect(await provider.readFile(p('empty'), { maxBytes: 1 })).toEqual({ bytes: new Uint8Array(), truncated: false });
  });

  it('classifies what it cannot read', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('dir'));
    writeFileSync(sandbox.at('file'), 'x');
    await expectFailure(provider.readFile(ROOT_PATH, { maxBytes: 1 }), 'not_a_file');
    await expectFailure(provider.readFile(p('dir'), { maxBytes: 1 }), 'not_a_file');
    await expectFailure(provider.readFile(p('missing'), { maxBytes: 1 }), 'not_found');
    await expectFailure(provider.readFile(p('missing/x'), { maxBytes: 1 }), 'not_found');
    await expectFailure(provider.readFile(p('file/x'), { maxBytes: 1 }), 'not_a_directory');
  });

  it('stats every kind without following links', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('dir'));
    writeFileSync(sandbox.at('file'), 'abc');
    symlinkSync('file', sandbox.at('link'));
    expect(await provider.stat(p('file'))).toMatchObject({ kind: 'file', sizeBytes: 3 });
    expect(await provider.stat(p('dir'))).toMatchObject({ kind: 'directory', sizeBytes: null });
    expect(await provider.stat(p('link'))).toMatchObject({ kind: 'symlink', sizeBytes: null });
    expect(await provider.stat(p('nope'))).toEqual({ kind: 'missing', sizeBytes: null, modifiedAt: null });
    expect((await provider.stat(ROOT_PATH)).kind).toBe('directory');
    expect((await provider.stat(p('file'))).modifiedAt).toBe(statSync(sandbox.at('file')).mtime.toISOString());
    await expectFailure(provider.stat(p('link/x')), 'symlink_refused');
  });
});

describe('listing', () => {
  it('returns the smallest names in code-point order, not UTF-16 order', async () => {
    const { sandbox, provider } = testbed();
    // U+1F600 sorts after U+FF5E in code points but before it in UTF-16 units.
    for (const name of ['b', 'a', '\u{1F600}', '\uFF5E', 'Z', 'é']) writeFileSync(sandbox.at(name), name);
    const all = await provider.listDirectory(ROOT_PATH, { limit: 10 });
    expect(all.entries.map((entry) => entry.name)).toEqual(['Z', 'a', 'b', 'é', '\uFF5E', '\u{1F600}']);
    expect(all.truncated).toBe(false);
    const first = await provider.listDirectory(ROOT_PATH, { limit: 3 });
    expect(first.entries.map((entry) => entry.name)).toEqual(['Z', 'a', 'b']);
    expect(first.truncated).toBe(true);
    const exact = await provider.listDirectory(ROOT_PATH, { limit: 6 });
    expect(exact.truncated).toBe(false);
  });

  it('lists a name that is not UTF-8 with U+FFFD, and that text opens only the name it spells', async () => {
    const { sandbox, provider } = testbed();
    const raw = Buffer.concat([Buffer.from(`${sandbox.root}/f`), Buffer.from([0xff]), Buffer.from('x')]);
    writeFileSync(raw, 'raw bytes');
    const listing = await provider.listDirectory(ROOT_PATH, { limit: 10 });
    expect(listing.entries).toMatchObject([{ name: 'f\uFFFDx', path: 'f\uFFFDx', kind: 'file', sizeBytes: 9 }]);
    await expectFailure(provider.readFile(p('f\uFFFDx'), { maxBytes: 100 }), 'not_found');
    writeFileSync(sandbox.at('f\uFFFDx'), 'spelled');
    expect(text((await provider.readFile(p('f\uFFFDx'), { maxBytes: 100 })).bytes)).toBe('spelled');
    const both = await provider.listDirectory(ROOT_PATH, { limit: 10 });
    expect(both.entries.map((entry) => entry.name)).toEqual(['f\uFFFDx', 'f\uFFFDx']);
  });

  it('reports kinds from lstat and refuses what is not a directory', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('d'));
    writeFileSync(sandbox.at('f'), '12345');
    symlinkSync('d', sandbox.at('l'));
    const listing = await provider.listDirectory(ROOT_PATH, { limit: 10 });
    expect(listing.entries.map(({ name, kind, sizeBytes }) => ({ name, kind, sizeBytes }))).toEqual([
      { name: 'd', kind: 'directory', sizeBytes: null },
      { name: 'f', kind: 'file', sizeBytes: 5 },
      { name: 'l', kind: 'symlink', sizeBytes: null },
    ]);
    await expectFailure(provider.listDirectory(p('f'), { limit: 1 }), 'not_a_directory');
    await expectFailure(provider.listDirectory(p('l'), { limit: 1 }), 'symlink_refused');
    await expectFailure(provider.listDirectory(p('nope'), { limit: 1 }), 'not_found');
  });
});

describe('writing', () => {
  it('creates parents, replaces atomically and keeps the mode bits', async () => {
    const { sandbox, provider } = testbed();
    expect(await provider.writeFile(p('x/y/z.txt'), bytes('one'), { overwrite: true })).toEqual({ created: true });
    expect(readFileSync(sandbox.at('x/y/z.txt'), 'utf8')).toBe('one');
    chmodSync(sandbox.at('x/y/z.txt'), 0o640);
    expect(await provider.writeFile(p('x/y/z.txt'), bytes('two'), { overwrite: true })).toEqual({ created: false });
    expect(readFileSync(sandbox.at('x/y/z.txt'), 'utf8')).toBe('two');
    expect(lstatSync(sandbox.at('x/y/z.txt')).mode & 0o7777).toBe(0o640);
    const listing = await provider.listDirectory(p('x/y'), { limit: 10 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['z.txt']);
  });

  it('decides overwrite: false and expected hashes', async () => {
    const { sandbox, provider } = testbed();
    writeFileSync(sandbox.at('f'), 'old');
    await expectFailure(provider.writeFile(p('f'), bytes('new'), { overwrite: false }), 'already_exists');
    await expectFailure(provider.writeFile(p('f'), bytes('new'), { overwrite: true, expectedSha256: 'missing' }), 'content_conflict');
    await expectFailure(provider.writeFile(p('f'), bytes('new'), { overwrite: true, expectedSha256: '0'.repeat(64) }), 'content_conflict');
    await expectFailure(provider.writeFile(p('g'), bytes('new'), { overwrite: true, expectedSha256: '0'.repeat(64) }), 'content_conflict');
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update('old').digest('hex');
    expect(await provider.writeFile(p('f'), bytes('new'), { overwrite: true, expectedSha256: sha })).toEqual({ created: false });
    expect(await provider.writeFile(p('g'), bytes('g'), { overwrite: false, expectedSha256: 'missing' })).toEqual({ created: true });
    expect(readFileSync(sandbox.at('f'), 'utf8')).toBe('new');
    mkdirSync(sandbox.at('d'));
    await expectFailure(provider.writeFile(p('d'), bytes('x'), { overwrite: false }), 'not_a_file');
    await expectFailure(provider.writeFile(ROOT_PATH, bytes('x'), { overwrite: true }), 'not_a_file');
  });

  it('fails a hash expectation on a missing parent before creating anything', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('a'));
    await expectFailure(provider.writeFile(p('a/b/c'), bytes('x'), { overwrite: true, expectedSha256: '1'.repeat(64) }), 'content_conflict');
    expect(existsSync(sandbox.at('a/b'))).toBe(false);
  });

  it('reports effect unknown when it created parents before failing', async () => {
    let racer: (() => void) | undefined;
    const bed = createLocalTestbed({ afterResolveStep: (step) => step.stage === 'effect' && racer?.() });
    cleanups.push(
      () => bed.sandbox.remove(),
      () => bed.provider.close(),
    );
    racer = () => writeFileSync(bed.sandbox.at('a/b/c'), 'racer');
    await expectFailure(bed.provider.writeFile(p('a/b/c'), bytes('x'), { overwrite: false }), 'already_exists', 'unknown');
    expect(readFileSync(bed.sandbox.at('a/b/c'), 'utf8')).toBe('racer');
  });

  it('makes directories with parents and exist_ok', async () => {
    const { sandbox, provider } = testbed();
    expect(await provider.makeDirectory(p('a/b/c'), { parents: true, existOk: false })).toEqual({ created: true });
    expect(await provider.makeDirectory(p('a/b/c'), { parents: true, existOk: true })).toEqual({ created: false });
    await expectFailure(provider.makeDirectory(p('a/b/c'), { parents: true, existOk: false }), 'already_exists');
    await expectFailure(provider.makeDirectory(p('x/y'), { parents: false, existOk: true }), 'not_found');
    writeFileSync(sandbox.at('f'), '');
    await expectFailure(provider.makeDirectory(p('f'), { parents: true, existOk: true }), 'not_a_directory');
    expect(await provider.makeDirectory(ROOT_PATH, { parents: true, existOk: true })).toEqual({ created: false });
    await expectFailure(provider.makeDirectory(ROOT_PATH, { parents: true, existOk: false }), 'already_exists');
  });
});

describe('deleting', () => {
  it('deletes files and directories with missing_ok', async () => {
    const { sandbox, provider } = testbed();
    writeFileSync(sandbox.at('f'), '');
    mkdirSync(sandbox.at('d/e'), { recursive: true });
    writeFileSync(sandbox.at('d/e/g'), '');
    expect(await provider.deleteFile(p('f'), { missingOk: false })).toEqual({ deleted: true });
    expect(await provider.deleteFile(p('f'), { missingOk: true })).toEqual({ deleted: false });
    expect(await provider.deleteFile(p('nope/f'), { missingOk: true })).toEqual({ deleted: false });
    await expectFailure(provider.deleteFile(p('f'), { missingOk: false }), 'not_found');
    await expectFailure(provider.deleteFile(p('d'), { missingOk: false }), 'not_a_file');
    await expectFailure(provider.deleteDirectory(p('d'), { recursive: false, missingOk: false }), 'directory_not_empty');
    expect(await provider.deleteDirectory(p('d'), { recursive: true, missingOk: false })).toEqual({ deleted: true });
    expect(await provider.deleteDirectory(p('d'), { recursive: true, missingOk: true })).toEqual({ deleted: false });
    expect(await provider.deleteDirectory(p('x/y'), { recursive: true, missingOk: true })).toEqual({ deleted: false });
    await expectFailure(provider.deleteDirectory(ROOT_PATH, { recursive: true, missingOk: false }), 'root_refused');
    mkdirSync(sandbox.at('empty'));
    expect(await provider.deleteDirectory(p('empty'), { recursive: false, missingOk: false })).toEqual({ deleted: true });
    expect(lstatSync(sandbox.root).isDirectory()).toBe(true);
  });
});

describe('lifecycle', () => {
  it('gives the host directory for subprocesses, only for directories', async () => {
    const { sandbox, provider } = testbed();
    mkdirSync(sandbox.at('sub'));
    writeFileSync(sandbox.at('f'), '');
    symlinkSync('sub', sandbox.at('l'));
    expect(provider.hostPath?.(ROOT_PATH)).toBe(sandbox.root);
    expect(provider.hostPath?.(p('sub'))).toBe(join(sandbox.root, 'sub'));
    await expectFailure(() => provider.hostPath?.(p('f')), 'not_a_directory');
    await expectFailure(() => provider.hostPath?.(p('l')), 'symlink_refused');
  });

  it('waits for calls in flight before closing the root fd, then refuses new calls', async () => {
    const { sandbox, provider } = testbed();
    for (let index = 0; index < 20; index++) writeFileSync(sandbox.at(`f${index}`), `${index}`);
    const pending = Array.from({ length: 20 }, (_, index) => provider.writeFile(p(`f${index}`), bytes(`new ${index}`), { overwrite: true }));
    const closed = provider.close();
    await Promise.all(pending);
    await closed;
    for (let index = 0; index < 20; index++) expect(readFileSync(sandbox.at(`f${index}`), 'utf8')).toBe(`new ${index}`);
    await expectFailure(provider.readFile(p('f0'), { maxBytes: 10 }), 'provider_failure');
  });
});
