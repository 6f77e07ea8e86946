import { expect } from 'vitest';
import { sha256Hex, utf8 } from '../case-context.js';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { text } from './case-helpers.js';

const group = 'writing';

/** `writeFile`: create, replace whole, parents, `created`, exclusive and hash-guarded variants, modes. */
export const writeCases: readonly ConformanceCase[] = [
  defineCase(group, 'creates a file and reports created', async ({ provider, fixtures, path }) => {
    expect(await provider.writeFile(path('new.txt'), utf8('fresh'), { overwrite: true })).toEqual({ created: true });
    expect(text(await fixtures.readFile('new.txt'))).toBe('fresh');
    expect(await provider.stat(path('new.txt'))).toMatchObject({ kind: 'file', sizeBytes: 5 });
  }),
  defineCase(group, 'replaces the whole file and reports not created', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f.txt', 'a long old content that must not survive');
    expect(await provider.writeFile(path('f.txt'), utf8('x'), { overwrite: true })).toEqual({ created: false });
    expect(text(await fixtures.readFile('f.txt'))).toBe('x');
  }),
  defineCase(group, 'writes empty bytes and binary bytes exactly', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', 'old');
    await provider.writeFile(path('f'), new Uint8Array(0), { overwrite: true });
    expect(await fixtures.readFile('f')).toEqual(new Uint8Array(0));
    const binary = Uint8Array.from([0, 0xff, 0xfe, 0x80, 10]);
    await provider.writeFile(path('g'), binary, { overwrite: true });
    expect([...((await fixtures.readFile('g')) ?? [])]).toEqual([...binary]);
  }),
  defineCase(group, 'creates an empty file from zero bytes', async ({ provider, fixtures, path }) => {
    expect(await provider.writeFile(path('d/empty'), new Uint8Array(0), { overwrite: false })).toEqual({ created: true });
    expect(await fixtures.readFile('d/empty')).toEqual(new Uint8Array(0));
    expect(await provider.stat(path('d/empty'))).toMatchObject({ kind: 'file', sizeBytes: 0 });
    expect(await provider.readFile(path('d/empty'), { maxBytes: 1 })).toEqual({ bytes: new Uint8Array(0), truncated: false });
  }),
  defineCase(group, 'writes, refused writes included, leave no other entry behind', async ({ provider, expectError, fixtures, path }) => {
    await fixtures.writeFile('d/keep', 'keep');
    await provider.writeFile(path('d/f'), utf8('one'), { overwrite: true });
    await provider.writeFile(path('d/f'), utf8('two'), { overwrite: true });
    await provider.writeFile(path('d/f'), utf8('three'), { overwrite: true, expectedSha256: sha256Hex('two') });
    await expectError(() => provider.writeFile(path('d/f'), utf8('x'), { overwrite: true, expectedSha256: sha256Hex('two') }), 'content_conflict');
    await expectError(() => provider.writeFile(path('d/f'), utf8('x'), { overwrite: false }), 'already_exists');
    await expectError(() => provider.writeFile(path('d/keep'), utf8('x'), { overwrite: true, expectedSha256: 'missing' }), 'content_conflict');
    await expectError(
      () => provider.writeFile(path('d/gone'), utf8('x'), { overwrite: true, expectedSha256: sha256Hex('keep') }),
      'content_conflict',
    );
    const listing = await provider.listDirectory(path('d'), { limit: 100 });
    expect(listing.entries.map((entry) => entry.name)).toEqual(['f', 'keep']);
    expect(text(await fixtures.readFile('d/f'))).toBe('three');
    expect(await fixtures.kindOf('d/gone')).toBe('missing');
  }),
  defineCase(group, 'creates missing parents', async ({ provider, fixtures, path }) => {
    await fixtures.makeDirectory('p');
    expect(await provider.writeFile(path('p/q/r/s.txt'), utf8('deep'), { overwrite: true })).toEqual({ created: true });
    expect(await fixtures.kindOf('p/q')).toBe('directory');
    expect(await fixtures.kindOf('p/q/r')).toBe('directory');
    expect(text(await fixtures.readFile('p/q/r/s.txt'))).toBe('deep');
  }),
  defineCase(group, 'a backslash is an ordinary character of a name', async ({ provider, fixtures, path }) => {
    await provider.writeFile(path('dir\\file.txt'), utf8('x'), { overwrite: true });
    expect(await fixtures.kindOf('dir\\file.txt')).toBe('file');
    expect(await fixtures.kindOf('dir')).toBe('missing');
  }),
  defineCase(group, 'overwrite:false creates a missing file', async ({ provider, fixtures, path }) => {
    expect(await provider.writeFile(path('a/once.txt'), utf8('one'), { overwrite: false })).toEqual({ created: true });
    expect(text(await fixtures.readFile('a/once.txt'))).toBe('one');
  }),
  defineCase(group, 'expectedSha256 missing creates a missing file', async ({ provider, fixtures, path }) => {
    const result = await provider.writeFile(path('guarded.txt'), utf8('one'), { overwrite: true, expectedSha256: 'missing' });
    expect(result).toEqual({ created: true });
    expect(text(await fixtures.readFile('guarded.txt'))).toBe('one');
  }),
  defineCase(group, 'expectedSha256 of the current bytes replaces the file', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', 'current');
    const result = await provider.writeFile(path('f'), utf8('next'), { overwrite: true, expectedSha256: sha256Hex('current') });
    expect(result).toEqual({ created: false });
    expect(text(await fixtures.readFile('f'))).toBe('next');
  }),
  defineCase(group, 'expectedSha256 of an empty file replaces it', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('empty', '');
    await provider.writeFile(path('empty'), utf8('filled'), { overwrite: true, expectedSha256: sha256Hex('') });
    expect(text(await fixtures.readFile('empty'))).toBe('filled');
  }),
  defineCase(group, 'a failed expectedSha256 leaves the bytes', async ({ provider, fixtures, path, expectError }) => {
    await fixtures.writeFile('f', 'current');
    await expectError(
      () => provider.writeFile(path('f'), utf8('next'), { overwrite: true, expectedSha256: sha256Hex('currenT') }),
      'content_conflict',
    );
    expect(text(await fixtures.readFile('f'))).toBe('current');
  }),
  defineCase(group, 'changing the written buffer afterwards changes nothing stored', async ({ provider, fixtures, path }) => {
    const bytes = utf8('keep');
    await provider.writeFile(path('f'), bytes, { overwrite: true });
    bytes.fill(0x7a);
    expect(text(await fixtures.readFile('f'))).toBe('keep');
  }),
  defineCase(
    group,
    'replacing a file keeps its mode bits',
    async ({ provider, fixtures, path }) => {
      const modes = fixtures.modes;
      if (modes === undefined) throw new Error('The case requires the modes fixture.');
      for (const mode of [0o640, 0o755, 0o600]) {
        await fixtures.writeFile('f', 'old');
        await modes.set('f', mode);
        await provider.writeFile(path('f'), utf8(`new ${mode}`), { overwrite: true });
        expect((await modes.get('f')).toString(8)).toBe(mode.toString(8));
        expect(text(await fixtures.readFile('f'))).toBe(`new ${mode}`);
      }
    },
    { fixtures: ['modes'] },
  ),
  defineCase(
    group,
    'a guarded replace keeps mode bits too',
    async ({ provider, fixtures, path }) => {
      const modes = fixtures.modes;
      if (modes === undefined) throw new Error('The case requires the modes fixture.');
      await fixtures.writeFile('d/f', 'old');
      await modes.set('d/f', 0o604);
      await provider.writeFile(path('d/f'), utf8('new'), { overwrite: true, expectedSha256: sha256Hex('old') });
      expect((await modes.get('d/f')).toString(8)).toBe('604');
      expect(text(await fixtures.readFile('d/f'))).toBe('new');
    },
    { fixtures: ['modes'] },
  ),
];
