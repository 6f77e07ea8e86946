import type { FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { type ConfigInput, DEFAULT_BOUNDS } from '@libos/core';
import { createRuntime, type RuntimeOptions } from '../src/index.js';
import { createTestbed } from './support/harness.js';

const CAFE_NFD = 'cafe\u0301.txt';
const CAFE_NFC = 'caf\u00E9.txt';
const PRIVE_NFD = 'prive\u0301';
const PRIVE_NFC = 'priv\u00E9';

describe('grants and labels govern every spelling of a name', () => {
  it('a deny written with the real (NFD) name holds when the file is named in NFC, and the reverse', async () => {
    for (const [denied, typed] of [
      [CAFE_NFD, CAFE_NFC],
      [CAFE_NFC, CAFE_NFD],
    ] as const) {
      const config: ConfigInput = {
        grants: [
          { path: '.', tree: true, rights: ['read', 'write', 'delete'] },
          { path: denied, rights: ['read', 'write', 'delete'], mode: 'deny' },
        ],
      };
      const bed = await createTestbed({ config });
      await bed.fixtures.writeFile(CAFE_NFD, 'the secret');
      for (const [tool, args] of [
        ['read_text_file', { path: typed }],
        ['edit_text_file', { path: typed, edits: [{ old_text: 'secret', new_text: 'public' }] }],
        ['copy_file', { from: typed, to: 'leak.txt' }],
        ['move_file', { from: typed, to: 'leak.txt' }],
        ['delete_file', { path: typed }],
        ['create_object_from_file', { name: 'x', path: typed }],
      ] as const) {
        expect(await bed.fail(tool, args), `${tool} ${JSON.stringify(typed)}`).toMatchObject({ code: 'denied', effect: 'none' });
      }
      expect(new TextDecoder().decode((await bed.fixtures.readFile(CAFE_NFD))!)).toBe('the secret');
      expect(await bed.fixtures.kindOf('leak.txt')).toBe('missing');
      await bed.runtime.close();
    }
  });

  it('a search never enters a directory denied under another spelling of its name', async () => {
    const bed = await createTestbed({
      config: {
        grants: [
          { path: '.', tree: true, rights: ['read'] },
          { path: PRIVE_NFC, tree: true, rights: ['read'], mode: 'deny' },
        ],
      },
    });
    await bed.fixtures.writeFile(`${PRIVE_NFD}/key.txt`, 'KEY=1');
    await bed.fixtures.writeFile('open.txt', 'nothing');
    const found = await bed.ok('search_files', { path: '.', query: 'KEY' });
    expect(found).toMatchObject({ count: 0, matches: [] });
    expect(await bed.ok('find_files', { path: '.', glob: '**/*.txt' })).toMatchObject({
      files: [expect.objectContaining({ path: 'open.txt' })],
      count: 1,
    });
    expect(await bed.fail('read_directory', { path: PRIVE_NFD })).toMatchObject({ code: 'denied' });
    await bed.runtime.close();
  });

  it('a label written with one spelling follows the bytes of the file named with the other', async () => {
    const bed = await createTestbed({ config: { labels: [{ path: CAFE_NFC, tree: false, label: 'secret' }] } });
    await bed.fixtures.writeFile(CAFE_NFD, 'the secret');
    // Imported by its exact (NFD) name, it still carries the label written in NFC, so it cannot leave.
    await bed.ok('create_object_from_file', { name: 'memo', path: CAFE_NFD });
    expect(await bed.fail('write_object_to_file', { name: 'memo', path: 'out.txt' })).toMatchObject({ code: 'egress_denied', effect: 'none' });
    expect(await bed.fail('copy_file', { from: CAFE_NFD, to: 'out.txt' })).toMatchObject({ code: 'egress_denied' });
    expect(await bed.fixtures.kindOf('out.txt')).toBe('missing');
    await bed.runtime.close();
  });
});

/** A memfs runtime whose provider records each method called, with the `limit` of each listing. */
async function recordingRuntime(options: Omit<RuntimeOptions, 'provider'> = {}) {
  const { provider, fixtures } = createMemfsTestbed();
  const calls: string[] = [];
  const limits: number[] = [];
  const wrapped = new Proxy(provider, {
    get(inner, property, receiver) {
      const value = Reflect.get(inner, property, receiver);
      if (typeof value !== 'function' || property === 'close') return value;
      return (...args: unknown[]) => {
        calls.push(String(property));
        if (property === 'listDirectory') limits.push((args[1] as { limit: number }).limit);
        return (value as (...parameters: unknown[]) => unknown).apply(inner, args);
      };
    },
  }) as FileSystemProviderV1;
  const runtime = await createRuntime({ provider: wrapped, ...options });
  const process = runtime.spawn();
  const record = async (tool: string, args: Record<string, unknown>) => {
    calls.length = 0;
    limits.length = 0;
    const outcome = await process.call(tool, args);
    return { outcome, calls: [...calls], limits: [...limits] };
  };
  return { runtime, fixtures, record };
}

describe('the lookup never reaches what the path rules refuse', () => {
  it('a no-break space after .git is .git with a trailing space: protected, never looked up', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('.git /config', '[core] secret');
    for (const [tool, args] of [
      ['read_text_file', { path: '.git\u00A0/config' }],
      ['read_directory', { path: '.git\u202F' }],
      ['delete_directory', { path: '.git\u00A0', recursive: true }],
      ['write_text_file', { path: '.git\u00A0/hooks/pre-commit', content: 'x' }],
    ] as const) {
      expect(await bed.fail(tool, args), tool).toMatchObject({ code: 'protected_path', effect: 'none' });
    }
    expect(await bed.fixtures.kindOf('.git /config')).toBe('file');
    await bed.runtime.close();
  });
});

describe('what the lookup costs', () => {
  it('costs nothing on the exact spelling, nor for a missing name no other spelling can equal', async () => {
    const { runtime, fixtures, record } = await recordingRuntime();
    await fixtures.writeFile(CAFE_NFD, 'x');
    expect(await record('read_text_file', { path: CAFE_NFD })).toMatchObject({ outcome: { ok: true }, calls: ['readFile'] });
    expect(await record('read_text_file', { path: 'missing.txt' })).toMatchObject({ outcome: { ok: false }, calls: ['readFile'] });
    expect(await record('write_text_file', { path: 'new.txt', content: 'n' })).toMatchObject({ outcome: { ok: true }, calls: ['writeFile'] });
    expect(await record('delete_file', { path: 'gone.txt', missing_ok: true })).toMatchObject({ outcome: { ok: true }, calls: ['deleteFile'] });
    await runtime.close();
  });

  it('reads at most one bounded listing per missing component, however large the directory', async () => {
    const { runtime, fixtures, record } = await recordingRuntime();
    for (let index = 0; index < 12_000; index++) await fixtures.writeFile(`big/f${String(index).padStart(5, '0')}.txt`, '');
    await fixtures.writeFile(`big/${CAFE_NFD}`, 'found');
    await fixtures.writeFile(`big/zz-${CAFE_NFD}`, 'past the bound');
    const found = await record('read_text_file', { path: `big/${CAFE_NFC}` });
    expect(found.outcome).toMatchObject({ ok: true, result: { path: `big/${CAFE_NFD}`, content: 'found' } });
    expect(found.limits).toEqual([DEFAULT_BOUNDS.list_limit_max]);
    // A name past the first list_limit_max entries in code-point order is not compared: the answer stays not_found.
    const past = await record('read_text_file', { path: `big/zz-${CAFE_NFC}` });
    expect(past.outcome).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(past.limits).toEqual([DEFAULT_BOUNDS.list_limit_max]);
    // Two missing components: one listing each, the second in the directory the first one found.
    await fixtures.writeFile(`${PRIVE_NFD}/${CAFE_NFD}`, 'deep');
    const deep = await record('read_text_file', { path: `${PRIVE_NFC}/${CAFE_NFC}` });
    expect(deep.outcome).toMatchObject({ ok: true, result: { path: `${PRIVE_NFD}/${CAFE_NFD}`, content: 'deep' } });
    expect(deep.limits).toHaveLength(2);
    await runtime.close();
  });
});
