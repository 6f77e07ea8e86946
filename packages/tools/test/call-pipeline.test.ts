import type { FileSystemProviderV1 } from '@libos/core';
import { createMemfsTestbed } from '@libos/provider-memfs/testing';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../src/index.js';
import { createTestbed } from './support/harness.js';

/** A memfs provider that records every method call, to prove what ran before the first probe. */
function recordingTestbed() {
  const { provider, fixtures } = createMemfsTestbed();
  const calls: string[] = [];
  const recorded = Object.fromEntries(
    Object.entries(provider).map(([key, value]) => [
      key,
      typeof value === 'function' && key !== 'close'
        ? (...args: unknown[]) => {
            calls.push(key);
            return (value as (...inner: unknown[]) => unknown)(...args);
          }
        : value,
    ]),
  ) as unknown as FileSystemProviderV1;
  return { provider: recorded, fixtures, calls };
}

describe('argument gate', () => {
  it('refuses an unknown tool', async () => {
    const bed = await createTestbed();
    const error = await bed.fail('remove_everything', {});
    expect(error).toMatchObject({ code: 'unknown_tool', effect: 'none' });
    expect(error.details).toMatchObject({ available: expect.arrayContaining(['read_text_file']) });
  });

  it('requires a plain JSON object', async () => {
    const bed = await createTestbed();
    for (const args of [[], 'path', 5, null, true, [{ path: '.' }], new Date(), new Map()]) {
      expect(await bed.fail('read_directory', args)).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    }
    for (const args of [{ path: undefined }, { path: '.', limit: Number.NaN }, { path: '.', limit: Infinity }, { path: 1n }]) {
      expect((await bed.fail('read_directory', args)).code).toBe('invalid_arguments');
    }
    const cyclic: Record<string, unknown> = { path: '.' };
    cyclic.self = cyclic;
    expect((await bed.fail('read_directory', cyclic)).code).toBe('invalid_arguments');
  });

  it('refuses accessors, proxies and hidden or symbol keys as not plain, never throwing', async () => {
    const bed = await createTestbed();
    let reads = 0;
    const lateThrow = {
      get path() {
        reads++;
        if (reads > 2) throw new Error('late');
        return '.';
      },
    };
    let traps = 0;
    const lateProxy = new Proxy(
      { path: '.' },
      {
        get(target, key, receiver) {
          traps++;
          if (traps > 3) throw new Error('late');
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    const cases: unknown[] = [
      {
        get path() {
          return '.';
        },
      },
      lateThrow,
      new Proxy({ path: '.' }, {}),
      lateProxy,
      { path: '.', [Symbol('hidden')]: 1 },
      Object.defineProperty({ path: '.' }, 'limit', { value: 5, enumerable: false }),
    ];
    for (const args of cases) {
      expect(await bed.fail('read_directory', args)).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    }
  });

  it('cannot be talked past the size gate by a hidden toJSON', async () => {
    const bed = await createTestbed({ config: { bounds: { arguments_max_bytes: 64 } } });
    const args = Object.defineProperty({ path: 'big.txt', content: 'x'.repeat(1000) }, 'toJSON', { value: () => ({}), enumerable: false });
    expect((await bed.fail('write_text_file', args)).code).toMatch(/^(arguments_too_large|invalid_arguments)$/);
    expect(await bed.fixtures.kindOf('big.txt')).toBe('missing');
  });

  it('names no tool it cannot print, without throwing', async () => {
    const bed = await createTestbed();
    for (const name of [
      Object.create(null),
      {
        toString: () => {
          throw new Error('no');
        },
      },
      5,
    ]) {
      expect(await bed.fail(name as string, {})).toMatchObject({ code: 'unknown_tool', effect: 'none' });
    }
  });

  it('treats missing arguments as an empty object', async () => {
    const bed = await createTestbed();
    expect(await bed.ok('get_working_directory')).toEqual({ working_directory: '.' });
  });

  it('measures the arguments JSON in UTF-8 bytes before any other check', async () => {
    const bed = await createTestbed({ config: { bounds: { arguments_max_bytes: 64 } } });
    // {"path":"…"} is 11 bytes of framing; each é is 2 bytes.
    const fits = { path: 'é'.repeat(26) };
    const over = { path: 'é'.repeat(27) };
    expect((await bed.fail('read_text_file', fits)).code).toBe('not_found');
    expect(await bed.fail('read_text_file', over)).toMatchObject({ code: 'arguments_too_large', effect: 'none' });
    expect((await bed.fail('no_such_tool', over)).code).toBe('arguments_too_large');
    expect((await bed.fail('read_text_file', { ...over, bogus: true })).code).toBe('arguments_too_large');
    expect((await bed.fail('read_text_file', { path: 'a\n'.repeat(20) })).code).toBe('arguments_too_large');
  });

  it('counts a deeply nested argument without overflowing the stack', async () => {
    const bed = await createTestbed();
    let deep: unknown = 'x';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect((await bed.fail('read_directory', { path: '.', deep })).code).toBe('invalid_arguments');
  });
});

describe('strict parse', () => {
  it('refuses unknown fields, including __proto__', async () => {
    const bed = await createTestbed();
    const error = await bed.fail('read_directory', { path: '.', recursive: true });
    expect(error).toMatchObject({ code: 'invalid_arguments', effect: 'none' });
    expect(error.details).toMatchObject({ issues: [{ code: 'unrecognized_keys', path: '' }] });
    expect(error.message).toContain('recursive');
    const proto = JSON.parse('{"path": ".", "__proto__": {"polluted": 1}}') as unknown;
    expect((await bed.fail('read_directory', proto)).code).toBe('invalid_arguments');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses missing fields, null and wrong types without coercion', async () => {
    const bed = await createTestbed();
    await bed.fixtures.writeFile('a.txt', 'x');
    const cases: [string, Record<string, unknown>, string][] = [
      ['read_text_file', {}, 'path'],
      ['read_text_file', { path: null }, 'path'],
      ['read_text_file', { path: 'a.txt', max_bytes: '5' }, 'max_bytes'],
      ['read_text_file', { path: 'a.txt', max_bytes: null }, 'max_bytes'],
      ['read_text_file', { path: 'a.txt', encoding: null }, 'encoding'],
      ['read_text_file', { path: 'a.txt', encoding: 8 }, 'encoding'],
      ['delete_file', { path: 'a.txt', missing_ok: 1 }, 'missing_ok'],
      ['delete_file', { path: 'a.txt', missing_ok: 'true' }, 'missing_ok'],
      ['write_text_file', { path: 'a.txt' }, 'content'],
      ['write_text_file', { path: 'a.txt', content: 5 }, 'content'],
      ['write_text_file', { path: 'a.txt', content: 'x', overwrite: 0 }, 'overwrite'],
      ['write_directory', { path: ['a'] }, 'path'],
      ['set_working_directory', { path: { name: 'a' } }, 'path'],
    ];
    for (const [tool, args, field] of cases) {
      const error = await bed.fail(tool, args);
      expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe('invalid_arguments');
      expect((error.details as { issues: { path: string }[] }).issues[0]!.path).toBe(field);
    }
    expect(new TextDecoder().decode((await bed.fixtures.readFile('a.txt'))!)).toBe('x');
  });

  it('keeps limit and max_bytes integers from 1 to their bound', async () => {
    const bed = await createTestbed({
      config: { bounds: { list_limit_max: 50, list_limit_default: 10, read_max_bytes_limit: 100, read_max_bytes_default: 10 } },
    });
    await bed.fixtures.writeFile('a.txt', 'x');
    for (const limit of [0, -1, 51, 1.5, 1e300]) {
      expect((await bed.fail('read_directory', { path: '.', limit })).code).toBe('invalid_arguments');
    }
    for (const max_bytes of [0, 101, 2.5]) {
      expect((await bed.fail('read_text_file', { path: 'a.txt', max_bytes })).code).toBe('invalid_arguments');
    }
    expect(await bed.ok('read_directory', { path: '.', limit: 50 })).toMatchObject({ count: 1 });
    expect(await bed.ok('read_text_file', { path: 'a.txt', max_bytes: 100 })).toMatchObject({ content: 'x' });
    const error = await bed.fail('read_directory', { path: '.', limit: 51 });
    expect(error.message).toContain('50');
  });

  it('refuses get_working_directory with any field', async () => {
    const bed = await createTestbed();
    expect((await bed.fail('get_working_directory', { path: '.' })).code).toBe('invalid_arguments');
  });

  it('keeps the issues of a huge argument short', async () => {
    const bed = await createTestbed();
    const args: Record<string, unknown> = { path: '.' };
    for (let index = 0; index < 500; index++) args[`key_${'k'.repeat(300)}_${index}`] = index;
    const error = await bed.fail('read_directory', args);
    expect(JSON.stringify(error).length).toBeLessThan(4000);
  });
});

describe('order of checks', () => {
  it('refuses an unsupported encoding before anything is read', async () => {
    const { provider, calls } = recordingTestbed();
    const runtime = await createRuntime({ provider });
    const process = runtime.spawn();
    // The path is also outside the workspace: the encoding is checked first.
    for (const args of [
      { path: '../x', encoding: 'ebcdic' },
      { path: '../x', content: 'x', encoding: 'ebcdic' },
    ]) {
      const tool = 'content' in args ? 'write_text_file' : 'read_text_file';
      const outcome = await process.call(tool, args);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'unsupported_encoding', effect: 'none' } });
    }
    expect(calls).toEqual([]);
  });

  it('applies the path rules before any provider call', async () => {
    const { provider, calls } = recordingTestbed();
    const runtime = await createRuntime({ provider });
    const process = runtime.spawn();
    const cases: [string, Record<string, unknown>, string][] = [
      ['read_text_file', { path: '/etc/passwd' }, 'invalid_path'],
      ['read_text_file', { path: 'a\u0000b' }, 'invalid_path'],
      ['read_directory', { path: '..' }, 'outside_workspace'],
      ['write_text_file', { path: 'x/.GIT/config', content: '' }, 'protected_path'],
      ['delete_directory', { path: 'a/..' }, 'root_refused'],
      ['delete_file', { path: '.git' }, 'protected_path'],
      ['write_directory', { path: `${'n'.repeat(256)}` }, 'invalid_path'],
      ['set_working_directory', { path: '../x' }, 'outside_workspace'],
    ];
    for (const [tool, args, code] of cases) {
      expect(await process.call(tool, args)).toMatchObject({ ok: false, error: { code, effect: 'none' } });
    }
    expect(calls).toEqual([]);
  });

  it('reports encode_failed before the path is even checked', async () => {
    const { provider, calls } = recordingTestbed();
    const runtime = await createRuntime({ provider });
    const outcome = await runtime.spawn().call('write_text_file', { path: '/abs', content: 'lone \ud800 surrogate' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'encode_failed', effect: 'none' } });
    expect(calls).toEqual([]);
  });
});
