import { Buffer } from 'node:buffer';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * A message as it is written: its JSON text in pieces (joined, they are exactly the message's JSON,
 * without the newline) and its size as written, newline included, which the channel's bounds count.
 * A large reply stays in pieces so that no joined copy of megabytes of text is ever built.
 */
export interface SerializedMessage {
  readonly parts: readonly string[];
  readonly bytes: number;
}

/** A `tools/call` result whose `structuredContent` JSON is already known: the text block's own text. */
export interface KnownStructure {
  /** The object the tool returned (the SDK hands the channel a shallow copy of it). */
  readonly value: object;
  /** `JSON.stringify(value)`, as measured when the call returned. */
  readonly json: string;
  /** UTF-8 bytes of `json`. */
  readonly bytes: number;
}

/** The message as `JSON.stringify` writes it, in one piece. */
export function serializeMessage(message: JSONRPCMessage): SerializedMessage {
  const json = JSON.stringify(message);
  return { parts: [json], bytes: Buffer.byteLength(json, 'utf8') + 1 };
}

/**
 * A reply's JSON, the same text `JSON.stringify` would write, built without serializing the result
 * twice: `structuredContent` is the JSON the runtime measured and the text block carries, spliced
 * in; the text block is escaped once; and their sizes come from that measure instead of counting
 * megabytes of text again. Anything else (no known result, a result the SDK reshaped) is serialized
 * whole.
 */
export function serializeReply(message: JSONRPCMessage, known: KnownStructure | undefined): SerializedMessage {
  const result = (message as { result?: unknown }).result;
  if (known === undefined || !isPlainRecord(message) || !isPlainRecord(result) || !sameProperties(result.structuredContent, known.value)) {
    return serializeMessage(message);
  }
  const parts: string[] = [];
  let bytes = 1;
  const add = (text: string, textBytes = Buffer.byteLength(text, 'utf8')): void => {
    parts.push(text);
    bytes += textBytes;
  };
  const members = (value: Readonly<Record<string, unknown>>, member: (key: string, item: unknown, prefix: string) => boolean): void => {
    let separator = '';
    for (const [key, item] of Object.entries(value)) {
      if (member(key, item, `${separator}${JSON.stringify(key)}:`)) separator = ',';
    }
  };
  const plain = (item: unknown, prefix: string): boolean => {
    const json = JSON.stringify(item);
    if (json === undefined) return false; // JSON.stringify drops such a member too
    add(`${prefix}${json}`);
    return true;
  };
  add('{');
  members(message as unknown as Record<string, unknown>, (key, item, prefix) => {
    if (key !== 'result') return plain(item, prefix);
    add(`${prefix}{`);
    members(result, (name, value, inner) => {
      if (name === 'structuredContent') {
        add(inner);
        add(known.json, known.bytes);
        return true;
      }
      if (name === 'content' && isOwnTextBlock(value, known.json)) {
        // Escaping JSON text adds only ASCII (a backslash before each quote and backslash), so
        // the escaped size is the measured size plus the characters added.
        const escaped = JSON.stringify(known.json);
        add(`${inner}[{"type":"text","text":`);
        add(escaped, known.bytes + escaped.length - known.json.length);
        add('}]');
        return true;
      }
      return plain(value, inner);
    });
    add('}');
    return true;
  });
  add('}');
  return { parts, bytes };
}

/** The bytes a stream is given: the pieces and the newline, copied once into one buffer. */
export function lineOf(serialized: SerializedMessage): Buffer {
  const line = Buffer.allocUnsafe(serialized.bytes);
  let offset = 0;
  for (const part of serialized.parts) offset += line.write(part, offset, 'utf8');
  // Never taken while `bytes` is exact (the tests hold it to that); a short count must not truncate a reply.
  if (offset !== serialized.bytes - 1) return Buffer.from(`${serialized.parts.join('')}\n`, 'utf8');
  line[offset] = 0x0a;
  return line;
}

function isPlainRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'toJSON' in value) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The SDK's copy of the tool's object: the same members, in the same order, holding the same values. */
function sameProperties(copy: unknown, original: object): boolean {
  if (!isPlainRecord(copy) || !isPlainRecord(original)) return false;
  const keys = Object.keys(copy);
  const originalKeys = Object.keys(original);
  if (keys.length !== originalKeys.length) return false;
  return keys.every((key, index) => key === originalKeys[index] && copy[key] === original[key]);
}

/** `[{type: "text", text}]` with exactly those members, its text the known JSON. */
function isOwnTextBlock(content: unknown, text: string): boolean {
  if (!Array.isArray(content) || content.length !== 1 || Object.hasOwn(content, 'toJSON')) return false;
  const block: unknown = content[0];
  if (!isPlainRecord(block)) return false;
  const keys = Object.keys(block);
  return keys.length === 2 && keys[0] === 'type' && keys[1] === 'text' && block.type === 'text' && block.text === text;
}
