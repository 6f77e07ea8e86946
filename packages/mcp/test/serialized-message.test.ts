import { Buffer } from 'node:buffer';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { lineOf, serializeReply, type KnownStructure } from '../src/serialized-message.js';

/** A reply as the SDK hands it to the transport: its own shallow copy of the tool's result. */
function replyOf(result: Record<string, unknown>, id: string | number = 7): { message: JSONRPCMessage; known: KnownStructure } {
  const json = JSON.stringify(result);
  const message = { result: { content: [{ type: 'text', text: json }], structuredContent: { ...result } }, jsonrpc: '2.0', id } as JSONRPCMessage;
  return { message, known: { value: result, json, bytes: Buffer.byteLength(json) } };
}

const hostile = [
  'plain',
  'quote " backslash \\ both \\" end',
  'control \u0000\u0001\n\t\u001f and DEL \u007f',
  'latin é ü ß, CJK 漢字, emoji 🙂, separators \u2028\u2029',
  'lone surrogates \ud800 x \udfff',
  '"}],"structuredContent":{"forged":true}}',
];

describe('serializeReply writes exactly what JSON.stringify would, from the measured text', () => {
  it.each(hostile)('keeps the bytes and the size exact for %j', (name) => {
    const result = { path: name, entries: [{ name, path: `d/${name}`, kind: 'file', size_bytes: 3 }], count: 1, truncated: false };
    const { message, known } = replyOf(result, name);
    const serialized = serializeReply(message, known);
    const expected = JSON.stringify(message);
    expect(serialized.parts.join('')).toBe(expected);
    expect(serialized.bytes).toBe(Buffer.byteLength(expected) + 1);
    expect(lineOf(serialized).equals(Buffer.from(`${expected}\n`))).toBe(true);
    // The measured text is spliced in, not serialized again: the result is one of the pieces.
    expect(serialized.parts).toContain(known.json);
  });

  it('serializes a reply whole when its structuredContent is not the measured object', () => {
    const { message, known } = replyOf({ text: 'one' });
    (message as unknown as { result: { structuredContent: Record<string, unknown> } }).result.structuredContent.text = 'two';
    const serialized = serializeReply(message, known);
    expect(serialized.parts).toEqual([JSON.stringify(message)]);
    expect(JSON.parse(serialized.parts.join('')).result.structuredContent).toEqual({ text: 'two' });
  });

  it('serializes a text block that is not the measured text in full', () => {
    const { message, known } = replyOf({ text: 'one' });
    (message as unknown as { result: { content: unknown[] } }).result.content.push({ type: 'text', text: 'more' });
    const serialized = serializeReply(message, known);
    expect(serialized.parts.join('')).toBe(JSON.stringify(message));
    expect(serialized.bytes).toBe(Buffer.byteLength(JSON.stringify(message)) + 1);
  });

  it('serializes an error reply whole', () => {
    const message = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'é' } } as JSONRPCMessage;
    const serialized = serializeReply(message, replyOf({ a: 1 }).known);
    expect(serialized).toEqual({ parts: [JSON.stringify(message)], bytes: Buffer.byteLength(JSON.stringify(message)) + 1 });
  });
});
