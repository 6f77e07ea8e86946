import { payloadByteLength } from '@libos/object-memory';
import { expect } from 'vitest';
import { defineStoreCase, type StoreCase } from '../store-case.js';
import { expectSameObject } from './case-helpers.js';

const group = 'payload texts';

const C0 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('');
const C1 = Array.from({ length: 32 }, (_, code) => String.fromCharCode(0x80 + code)).join('');

// Every text a decoded file can hold, and then some: a store must give each back unit for unit.
const TEXTS: readonly [string, string][] = [
  ['NUL', 'before\u0000after'],
  ['only NUL', '\u0000'],
  ['a lone BOM', '\uFEFF'],
  ['a leading BOM', '\uFEFFtext'],
  ['line and paragraph separators', 'a\u2028b\u2029c'],
  ['every C0 control and DEL', `${C0}\u007f`],
  ['every C1 control', C1],
  ['CR, LF and CRLF', 'a\rb\nc\r\nd'],
  ['an empty text', ''],
  ['quotes and backslashes', '"\\"\\\\\\n\\u0000'],
  ['astral characters and a ZWJ sequence', '𝄞 😀 👩‍👩‍👧‍👦'],
  ['bidirectional and format characters', '\u202e\u2066\u200d\u00ad'],
  ['noncharacters', '\uFFFE\uFFFF\u{10FFFF}'],
  ['lone surrogates (kept by JSON escapes)', 'a\uD800b\uDFFFc'],
  ['text that looks like JSON escapes', '\\u0000 \\ud800 {"a":1}'],
];

// Shapes of JSON a payload may have: key order, odd keys and numbers must come back as they went.
const SHAPES: readonly [string, unknown][] = [
  ['keys not in sorted order', { zebra: 1, apple: 2, Mango: 3, '10': 4, '9': 5 }],
  ['a "__proto__" key', JSON.parse('{"__proto__": {"polluted": true}, "x": 1}')],
  ['keys with NUL and empty keys', { '': 1, '\u0000': 2, 'a\u0000b': 3 }],
  ['numbers at the edges', [0, -1, 1.5, 1e21, 1e-7, 1.7976931348623157e308, 5e-324, 9007199254740991, -9007199254740991, 0.1]],
  ['a string payload', 'just a string'],
  ['null, booleans and empty containers', [null, true, false, [], {}]],
  ['deep nesting', JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`)],
];

export const textCases: readonly StoreCase[] = [
  ...TEXTS.map(([name, text]) =>
    defineStoreCase(group, `${name} survives exactly`, async ({ store, object, create }) => {
      await store.declareNamespace('n');
      const created = object('n', 'text', { payload: { kind: 'workspace_text_file', content: text, other: [text] } });
      await create(created);
      expectSameObject(await store.get('n', 'text'), created);
      expect(await store.usage()).toEqual({ objects: 1, bytes: payloadByteLength(created.payload) });
    }),
  ),
  ...SHAPES.map(([name, payload]) =>
    defineStoreCase(group, `a payload with ${name} survives exactly`, async ({ store, object, create }) => {
      await store.declareNamespace('n');
      const created = object('n', 'shape', { payload: payload as never });
      await create(created);
      expectSameObject(await store.get('n', 'shape'), created);
    }),
  ),
  defineStoreCase(group, 'a 16 MiB text survives exactly', async ({ store, object, create }) => {
    await store.declareNamespace('n');
    // Multi-byte and astral characters, NUL and separators spread through 16 MiB of UTF-8.
    const unit = 'abcdefgh é 😀 \u0000 \u2028 \uFEFF\n';
    const size = 16 * 1024 * 1024;
    const repeated = unit.repeat(Math.floor(size / Buffer.byteLength(unit)));
    const text = repeated + 'x'.repeat(size - Buffer.byteLength(repeated));
    expect(Buffer.byteLength(text)).toBe(size);
    const created = object('n', 'big', { payload: { content: text } });
    await create(created);
    expectSameObject(await store.get('n', 'big'), created);
  }),
];
