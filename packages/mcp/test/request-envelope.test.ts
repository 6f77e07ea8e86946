import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isRequestEnvelope } from '../src/json-rpc.js';

// The channel's plain check of a dispatched request must answer exactly what the SDK's schema
// answers: a message it waves through that the schema refuses would reach the SDK malformed, and
// one it refuses that the schema takes would be answered -32600 for nothing.
const polluted = JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{},"__proto__":{"x":1}}') as Record<string, unknown>;
const protoMeta = JSON.parse('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"__proto__":{"_meta":5}}}') as Record<string, unknown>;
const inheritedMeta = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: Object.create({ _meta: 5 }) as Record<string, unknown> };

const CASES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['a plain call', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { path: 'a' } } }],
  ['no params', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
  ['params null', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: null }],
  ['params an array', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: [] }],
  ['params a string', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: 'x' }],
  ['a string id', { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: {} }],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: {} }],
  ['an unsafe integer id', { jsonrpc: '2.0', id: 2 ** 53 + 2, method: 'tools/call', params: {} }],
  ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/call', params: {} }],
  ['no id', { jsonrpc: '2.0', method: 'tools/call', params: {} }],
  ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'tools/call', params: {} }],
  ['a method that is a number', { jsonrpc: '2.0', id: 1, method: 5, params: {} }],
  ['an unknown top-level key', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {}, extra: true }],
  ['an own __proto__ key', polluted],
  ['an accepted _meta', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 'p' } } }],
  ['a _meta that is a number', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: 5 } }],
  ['a _meta with a bad progress token', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1.5 } } }],
  ['a _meta under an own __proto__ key of params', protoMeta],
  ['a _meta inherited by params', inheritedMeta],
];

describe('isRequestEnvelope', () => {
  it.each(CASES)('answers as the SDK schema does: %s', (_label, message) => {
    expect(isRequestEnvelope(message)).toBe(isJSONRPCRequest(message));
  });
});
