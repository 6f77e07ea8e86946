import { describe, expect, it } from 'vitest';
import { oversizeAnswer } from '../src/oversize-answer.js';
import { OversizeLineFilter, type OversizeLine } from '../src/oversize-line-filter.js';

/** Feeds `chunks` through a filter; returns what passed and what was reported. */
async function filter(maxLineBytes: number, chunks: readonly string[]) {
  const reported: OversizeLine[] = [];
  const passed: string[] = [];
  const stream = new OversizeLineFilter(maxLineBytes, (line) => reported.push(line));
  stream.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
  for (const chunk of chunks) stream.write(Buffer.from(chunk));
  stream.end();
  await new Promise((resolve) => stream.on('end', resolve));
  return { passed, reported };
}

describe('OversizeLineFilter', () => {
  it('passes lines up to the limit whole, however they were split', async () => {
    const { passed, reported } = await filter(20, ['{"a":', '1}\n{"b":2}\n{"c"', ':3}\n']);
    expect(passed).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    expect(reported).toEqual([]);
  });

  it('drops a longer line as it streams, keeping what identifies it, and goes on', async () => {
    const sdkOrder = `{"method":"tools/call","params":{"name":"w","arguments":{"content":"${'x'.repeat(10_000)}"}},"jsonrpc":"2.0","id":7}\n`;
    const otherOrder = `{"jsonrpc":"2.0","id":"r-1","method":"ping","params":{"pad":"${'y'.repeat(9_000)}"}}\r\n`;
    const notification = `{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"${'z'.repeat(9_000)}"}}\n`;
    const text = `${sdkOrder}{"ok":1}\n${otherOrder}${notification}{"ok":2}\n`;
    const chunks = text.match(/[^]{1,1000}/gu)!;
    const { passed, reported } = await filter(200, chunks);
    expect(passed).toEqual(['{"ok":1}\n', '{"ok":2}\n']);
    expect(reported).toEqual([
      { id: 7, method: 'tools/call', bytes: Buffer.byteLength(sdkOrder) },
      { id: 'r-1', method: 'ping', bytes: Buffer.byteLength(otherOrder) },
      { id: undefined, method: 'notifications/x', bytes: Buffer.byteLength(notification) },
    ]);
  });

  it('takes only the outer id at the end, not an id inside the arguments', async () => {
    const line = `{"method":"tools/call","params":{"arguments":{"id":5,"pad":"${'x'.repeat(500)}","inner":{"id":6}}}}\n`;
    const { reported } = await filter(100, [line]);
    expect(reported[0]?.id).toBeUndefined();
  });
});

describe('oversizeAnswer', () => {
  it('fails a tool call with arguments_too_large and nothing else', () => {
    const answer = oversizeAnswer({ id: 3, method: 'tools/call', bytes: 99 }, 64, 80);
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {
        isError: true,
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              error: {
                code: 'arguments_too_large',
                message: 'The arguments are larger than 64 bytes of JSON.',
                effect: 'none',
                details: { max_bytes: 64 },
              },
            }),
          },
        ],
      },
    });
  });

  it('gives other requests a JSON-RPC error, and a line without an id no answer', () => {
    expect(oversizeAnswer({ id: 'a', method: 'ping', bytes: 99 }, 64, 80)).toMatchObject({
      id: 'a',
      // The limit the server reads, not the size of the line it dropped.
      error: { code: -32600, message: 'The request is larger than the 80 bytes this server reads.' },
    });
    expect(oversizeAnswer({ id: undefined, method: 'tools/call', bytes: 99 }, 64, 80)).toBeUndefined();
  });
});
