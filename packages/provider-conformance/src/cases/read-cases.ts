import { expect } from 'vitest';
import { defineCase } from '../conformance-case.js';
import type { ConformanceCase } from '../conformance-case.js';
import { expectUnchanged } from './case-helpers.js';

const group = 'reading';
const binary = Uint8Array.from([0, 1, 2, 0x7f, 0x80, 0xc3, 0xff, 0xfe, 10, 13, 0]);

/** `readFile` returns a prefix of at most `maxBytes` bytes and says whether the file holds more. */
export const readCases: readonly ConformanceCase[] = [
  defineCase(group, 'a whole file comes back byte for byte', async (context) => {
    await context.fixtures.writeFile('dir/binary.bin', binary);
    const read = await expectUnchanged(context, [], () => context.provider.readFile(context.path('dir/binary.bin'), { maxBytes: 1024 }));
    expect([...read.bytes]).toEqual([...binary]);
    expect(read.truncated).toBe(false);
  }),
  defineCase(group, 'maxBytes equal to the size is not truncated', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', binary);
    const read = await provider.readFile(path('f'), { maxBytes: binary.length });
    expect([...read.bytes]).toEqual([...binary]);
    expect(read.truncated).toBe(false);
  }),
  defineCase(group, 'maxBytes one below the size returns a truncated prefix', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', binary);
    const read = await provider.readFile(path('f'), { maxBytes: binary.length - 1 });
    expect([...read.bytes]).toEqual([...binary.subarray(0, binary.length - 1)]);
    expect(read.truncated).toBe(true);
  }),
  defineCase(group, 'maxBytes above the size returns the whole file', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', binary);
    const read = await provider.readFile(path('f'), { maxBytes: binary.length + 1 });
    expect(read.bytes.length).toBe(binary.length);
    expect(read.truncated).toBe(false);
  }),
  defineCase(group, 'an empty file reads as no bytes, not truncated', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('empty', '');
    const read = await provider.readFile(path('empty'), { maxBytes: 1 });
    expect(read.bytes.length).toBe(0);
    expect(read.truncated).toBe(false);
  }),
  defineCase(group, 'a prefix may end inside a multi-byte character', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', 'é');
    const read = await provider.readFile(path('f'), { maxBytes: 1 });
    expect([...read.bytes]).toEqual([0xc3]);
    expect(read.truncated).toBe(true);
  }),
  defineCase(group, 'one byte of a large file', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('large', new Uint8Array(1 << 20).fill(0x61));
    const read = await provider.readFile(path('large'), { maxBytes: 1 });
    expect([...read.bytes]).toEqual([0x61]);
    expect(read.truncated).toBe(true);
  }),
  defineCase(group, 'changing the returned bytes changes nothing stored', async ({ provider, fixtures, path }) => {
    await fixtures.writeFile('f', 'abc');
    const first = await provider.readFile(path('f'), { maxBytes: 10 });
    first.bytes.fill(0x7a);
    expect([...(await provider.readFile(path('f'), { maxBytes: 10 })).bytes]).toEqual([0x61, 0x62, 0x63]);
  }),
];
