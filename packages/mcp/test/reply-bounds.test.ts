import type { ToolSummary } from '@libos/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { maxMessageBytes } from '../src/channel-limits.js';
import type { McpProcess } from '../src/mcp-runtime.js';
import { fakeRuntime } from './support/fake-runtime.js';
import { EVERY_WAY, MODERN, type Served, serve } from './support/generations.js';

const bigTool: ToolSummary = {
  name: 'big',
  title: 'Big',
  description: 'Returns 400,000 backslashes.',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};
const writeTool: ToolSummary = { ...bigTool, name: 'big_write', annotations: { ...bigTool.annotations, readOnlyHint: false } };
const calls: unknown[] = [];
const process: McpProcess = {
  call: async (name, args) => {
    calls.push(name);
    return name === 'echo' ? { ok: true, result: { args } } : { ok: true, result: { text: '\\'.repeat(400_000) } };
  },
};

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  calls.length = 0;
});

type Failure = { error: { code: string; message: string; effect: string; details: Record<string, number> } };
const failureOf = (text: string | undefined) => JSON.parse(text ?? '{}') as Failure;

describe.each(EVERY_WAY)('replies and requests are bounded, $generation over $transport', ({ generation, transport }) => {
  const limits = { maxReplyBytes: 1_000_000 };
  const start = () => serve(transport, { runtime: fakeRuntime([bigTool, writeTool], process), http: { limits }, stdio: { limits } });

  it('replaces a reply over the bound with result_too_large that says how to narrow the call', async () => {
    served = await start();
    const connection = await served.connect(generation);
    const read = await connection.request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } });
    expect(read.result?.isError).toBe(true);
    expect(read.result?.structuredContent).toBeUndefined();
    const failure = failureOf(read.result?.content?.[0]?.text);
    expect(failure.error).toMatchObject({ code: 'result_too_large', effect: 'none', details: { max_reply_bytes: 1_000_000 } });
    // 400,000 backslashes: 800,000 bytes as structuredContent and 1,600,000 more as the escaped text.
    expect(failure.error.details.reply_bytes).toBeGreaterThan(2_400_000);
    expect(failure.error.message).toMatch(/limit or max_bytes/u);
    // A tool that may have changed something says so.
    const written = await connection.request({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'big_write', arguments: {} } });
    expect(failureOf(written.result?.content?.[0]?.text).error).toMatchObject({ code: 'result_too_large', effect: 'unknown' });
  });

  it('drops a request over the read limit unread: a call fails arguments_too_large, and the connection goes on', async () => {
    served = await start();
    const connection = await served.connect(generation);
    const readLimit = maxMessageBytes(served.runtime.bounds.arguments_max_bytes);
    const huge = { jsonrpc: '2.0', id: 'huge', method: 'tools/call', params: { name: 'echo', arguments: { pad: 'y'.repeat(readLimit) } } };
    const exchanged = await connection.exchange(huge);
    if (transport === 'http') {
      // An HTTP body over the limit is refused whole (413) before anything reads it, under either generation.
      expect(exchanged.status).toBe(413);
    } else {
      const answer = exchanged.answers.find((candidate) => candidate.id === 'huge');
      expect(failureOf(answer?.result?.content?.[0]?.text).error).toMatchObject({ code: 'arguments_too_large', effect: 'none' });
    }
    expect(calls).toEqual([]);
    const after = await connection.request({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { small: 1 } } });
    expect(after.result?.structuredContent).toMatchObject({ args: { small: 1 } });
    if (generation === MODERN && transport === 'http') expect(served.http?.sessionCount).toBe(0);
  });
});
